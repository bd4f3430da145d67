// POST /api/admin/login - exchange the admin's email and password for a bearer token
import { route } from "@/lib/api/handler";
import { clientAddress } from "@/lib/api/client-address";
import { login } from "@/lib/auth/login";
import { loginSchema } from "@/lib/schemas/admin";

export const POST = route({ body: loginSchema }, async ({ request, body }) => ({
  token: await login(body.email, body.password, clientAddress(request.headers)),
}));
