// POST /api/admin/change-password - change the password; every earlier token stops working
import { route } from "@/lib/api/handler";
import { clientAddress } from "@/lib/api/client-address";
import { DEVICE_COOKIE } from "@/lib/auth/device";
import { changePassword } from "@/lib/auth/login";
import { changePasswordSchema } from "@/lib/schemas/admin";

export const POST = route({ admin: true, body: changePasswordSchema }, async ({ request, admin, body }) => ({
  success: true,
  message: "Password changed",
  token: await changePassword(
    admin.adminId,
    body.currentPassword,
    body.newPassword,
    clientAddress(request.headers),
    request.cookies.get(DEVICE_COOKIE)?.value,
  ),
}));
