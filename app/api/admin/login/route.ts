// POST /api/admin/login - exchange the admin's email and password for a bearer token
import { route } from "@/lib/api/handler";
import { DEVICE_COOKIE } from "@/lib/auth/device";
import { login } from "@/lib/auth/login";
import { loginSchema } from "@/lib/schemas/admin";

export const POST = route({ body: loginSchema }, async ({ request, caller, body }) => {
  const { token, deviceCookie } = await login(
    body.email,
    body.password,
    caller.clientIp,
    request.cookies.get(DEVICE_COOKIE)?.value,
  );
  return Response.json({ token }, { headers: { "set-cookie": deviceCookie } });
});
