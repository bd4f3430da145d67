// GET /api/admin/phone-registers - the TPS and CTPS registers as loaded (file date, counts)
// POST /api/admin/phone-registers - load a register (multipart: register, fileDate, then file) and screen UK leads
import { route } from "@/lib/api/handler";
import { loadRegisterUpload, phoneRegisters, REGISTER_LIMITS } from "@/lib/leads/register-upload";

export const GET = route({ admin: true }, () => phoneRegisters());

export const POST = route({ admin: true, upload: true }, async ({ upload }) =>
  loadRegisterUpload(await upload.read(REGISTER_LIMITS)),
);
