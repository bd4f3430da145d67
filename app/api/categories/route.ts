import { route } from "@/lib/api/handler";
import { listCategories } from "@/lib/categories/public";

// GET /api/categories - every category with its available lead count
export const GET = route({}, async () => Response.json(await listCategories()));
