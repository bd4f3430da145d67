// POST /api/admin/login - exchange the admin's email and password for a bearer token
import { setCookieHeader } from "@/lib/api/cookies";
import { route } from "@/lib/api/handler";
import { DEVICE_COOKIE } from "@/lib/auth/device";
import { login } from "@/lib/auth/login";
import { loginSchema } from "@/lib/schemas/admin";

export const POST = route({ body: loginSchema }, async ({ cookies, caller, body }) => {
  const { token, deviceCookie } = await login(
    body.email,
    body.password,
    caller.clientIp,
    cookies[DEVICE_COOKIE],
  );
  return Response.json({ token }, { headers: { "set-cookie": setCookieHeader(deviceCookie) } });
});
