// A lingering close, as nginx has: an answer given before the request's body has arrived (an
// upload refused at its token, its size, its address's limit) is followed by reading and dropping
// the rest of the body, up to a bound, before the connection closes. Closing at once makes a
// client still sending see a reset instead of the answer.
import { byteBudget } from "./byte-budget.mjs";

/** What a refused request may still send after its answer, before the connection is cut. */
export const LINGER_MAX_BYTES = 16 * 1024 * 1024;
export const LINGER_MAX_MS = 5_000;
/**
 * What all lingering connections of the process together read in a second: a client sending
 * body after refused body as fast as it can would otherwise have the thread that answers everyone
 * read them at the line's rate. A connection past it is paused until the budget has room again.
 */
export const LINGER_BYTES_PER_SECOND = 16 * 1024 * 1024;

const spend = byteBudget(LINGER_BYTES_PER_SECOND);

/**
 * Makes an early answer close the connection after it: the unread rest of the body must not be
 * taken for the client's next request on a kept-alive connection. The close waits until the body
 * has arrived (read and dropped, within the process's LINGER_BYTES_PER_SECOND), LINGER_MAX_BYTES
 * more have arrived, or LINGER_MAX_MS have passed since the answer began, whichever is first.
 */
export function closeAfterEarlyAnswer(request, response) {
  const writeHead = response.writeHead;
  response.writeHead = function (...args) {
    if (!request.complete && !response.headersSent) {
      response.setHeader("connection", "close");
      linger(request);
    }
    return writeHead.apply(this, args);
  };
}

/** Holds the server's close of the request's socket until its body ends or a bound is reached. */
function linger(request) {
  const socket = request.socket;
  const destroySoon = socket.destroySoon.bind(socket);
  let dropped = 0;
  // Set once the body has ended, the client has gone or a bound was reached.
  let settled = false;
  let closeWanted = false;
  /** While paused for the budget: the resume. */
  let paused;
  /** `cut`: the body is still arriving; the rest is refused and the client may see a reset. */
  const settle = (cut) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    clearTimeout(paused);
    request.off("data", count);
    if (cut) socket.destroy();
    else if (closeWanted) destroySoon();
  };
  const count = (chunk) => {
    dropped += chunk.length;
    if (dropped > LINGER_MAX_BYTES) return settle(true);
    const wait = spend(chunk.length);
    if (wait === 0) return;
    request.pause();
    paused = setTimeout(() => request.resume(), wait);
  };
  const timer = setTimeout(() => settle(!request.complete), LINGER_MAX_MS);
  request.on("data", count);
  request.once("end", () => settle(false));
  request.once("close", () => settle(!request.complete));
  // Node's server closes a `connection: close` answer's socket with destroySoon once it is sent.
  socket.destroySoon = () => {
    closeWanted = true;
    if (settled) destroySoon();
  };
}
