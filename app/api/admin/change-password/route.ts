// POST /api/admin/change-password - change the password; every earlier token stops working
import { route } from "@/lib/api/handler";
import { DEVICE_COOKIE } from "@/lib/auth/device";
import { changePassword } from "@/lib/auth/login";
import { changePasswordSchema } from "@/lib/schemas/admin";

export const POST = route(
  { admin: true, body: changePasswordSchema },
  async ({ cookies, caller, admin, body }) => ({
    success: true,
    message: "Password changed",
    token: await changePassword(
      admin.adminId,
      body.currentPassword,
      body.newPassword,
      caller.clientIp,
      cookies[DEVICE_COOKIE],
    ),
  }),
);
