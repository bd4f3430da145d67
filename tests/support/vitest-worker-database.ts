// Runs before each test file: points DATABASE_URL at this worker's own copy of the run's template
// (made by the first file the worker runs). A file that needs a database of its own still sets
// DATABASE_URL itself before importing the app.
import { cloneTestDatabase } from "./database";

const template = process.env.TEST_DATABASE_TEMPLATE!;
const database = await cloneTestDatabase(template, `${template}_w${process.env.VITEST_POOL_ID ?? "0"}`);
process.env.DATABASE_URL = database.url;
