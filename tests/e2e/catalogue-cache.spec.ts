// The catalogue pages (home, category pages, sitemap, GET /api/categories) are served from the
// cache, and every change to the catalogue shows on the next request: creating, importing into,
// renaming and deleting a category through the admin API, and a change written straight to the
// database (the version trigger), as other parts of the app and other instances make them.
import type { APIRequestContext } from "@playwright/test";
import { E2E_ADMIN } from "./global-setup";
import { e2eDb, expect, findAdmin, signToken, test } from "./admin-fixtures";

const RUN = Date.now().toString(36);

async function text(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  return response.text();
}

/** The count the home page's card for `title` shows. */
async function homeCount(request: APIRequestContext, title: string): Promise<string | undefined> {
  const html = await text(request, "/");
  const card = html.split(`${title} Professionals - USA`)[1] ?? "";
  return /<span class="font-semibold">([\d,]+)<\/span> leads available/.exec(card)?.[1];
}

test("catalogue pages come from the cache and change on the next request after a change", async ({
  request,
}) => {
  const auth = { authorization: `Bearer ${await signToken(await findAdmin(E2E_ADMIN.email))}` };
  const title = `Cache Probe ${RUN}`;
  const created = await request.post("/api/admin/categories", { data: { title }, headers: auth });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { _id: string })._id;

  // Created, still empty: not public (an empty category is not offered), on the next request.
  expect(await homeCount(request, title)).toBeUndefined();
  expect((await request.get(`/category/${id}`)).status()).toBe(404);
  expect(await text(request, "/api/categories")).not.toContain(title);
  expect(await text(request, "/sitemap.xml")).not.toContain(`/category/${id}`);

  // Imported: public, with the counts (the home page shows the USA list) and the sample table.
  const csv = [
    "First Name,Last Name,Email Address,Company,Country",
    "Ada,Lovelace,ada@probe.test,Engines,UK",
  ];
  for (let n = 0; n < 1200; n += 1) csv.push(`Lead,Number${n},lead${n}@probe.test,Acme,USA`);
  const imported = await request.post(`/api/admin/categories/${id}/leads`, {
    headers: auth,
    multipart: { file: { name: "probe.csv", mimeType: "text/csv", buffer: Buffer.from(csv.join("\n")) } },
  });
  expect(imported.status()).toBe(200);
  expect(await homeCount(request, title)).toBe("1,200");
  expect(await text(request, `/category/${id}`)).toContain(title);
  expect(await text(request, "/sitemap.xml")).toContain(`/category/${id}`);
  const starter = await text(request, `/category/${id}?package=starter`);
  expect(/1,200(<!-- -->)? leads available/.test(starter)).toBe(true);
  expect(await request.get("/api/categories").then((response) => response.json())).toContainEqual(
    expect.objectContaining({ _id: id, count: 1201, countByLocation: { USA: 1200, UK: 1 } }),
  );
  // Served from the cache now (another test's change may have intervened once: ask again).
  await expect
    .poll(async () => (await request.get(`/category/${id}`)).headers()["x-nextjs-cache"])
    .toBe("HIT");
  await expect.poll(async () => (await request.get("/")).headers()["x-nextjs-cache"]).toBe("HIT");

  // Renamed.
  const renamed = await request.patch(`/api/admin/categories/${id}`, {
    data: { title: `${title} Renamed` },
    headers: auth,
  });
  expect(renamed.status()).toBe(200);
  expect(await text(request, `/category/${id}`)).toContain(`${title} Renamed`);
  expect(await text(request, `/category/${id}?package=starter`)).toContain(`${title} Renamed`);
  expect(await homeCount(request, `${title} Renamed`)).toBe("1,200");

  // Changed in the database by anything else (here, by hand): the trigger's version bump is enough.
  await e2eDb().query("UPDATE categories SET description = $2 WHERE id = $1", [id, `Described ${RUN}`]);
  expect(await text(request, `/category/${id}`)).toContain(`Described ${RUN}`);
  expect(await text(request, "/api/categories")).toContain(`Described ${RUN}`);

  // Deleted.
  expect((await request.delete(`/api/admin/categories/${id}`, { headers: auth })).status()).toBe(200);
  expect((await request.get(`/category/${id}`)).status()).toBe(404);
  expect(await text(request, "/api/categories")).not.toContain(id);
  expect(await text(request, "/sitemap.xml")).not.toContain(id);
  expect(await text(request, "/")).not.toContain(title);
});
