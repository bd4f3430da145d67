// A PDF's text read back with pdfjs (Mozilla's parser), page by page, each text item on its own line.
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const document = await getDocument({ data: bytes, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let page = 1; page <= document.numPages; page++) {
    const content = await (await document.getPage(page)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join("\n"));
  }
  await document.destroy();
  return pages.join("\n");
}
