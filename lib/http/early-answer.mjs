// A lingering close, as nginx has: an answer given before the request's body has arrived (an
// upload refused at its token, its size, its address's limit) is followed by reading and dropping
// the rest of the body, up to a bound, before the connection closes. Closing at once makes a
// client still sending see a reset instead of the answer.

/** What a refused request may still send after its answer, before the connection is cut. */
export const LINGER_MAX_BYTES = 16 * 1024 * 1024;
export const LINGER_MAX_MS = 5_000;

/**
 * Makes an early answer close the connection after it: the unread rest of the body must not be
 * taken for the client's next request on a kept-alive connection. The close waits until the body
 * has arrived (read and dropped), LINGER_MAX_BYTES more have arrived, or LINGER_MAX_MS have
 * passed since the answer began, whichever is first.
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
  const close = socket.destroySoon.bind(socket);
  let dropped = 0;
  let closeWanted = false;
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    request.off("data", count);
    // Past a bound the rest is refused: the client may then see a reset, as it would anyway.
    if (!request.complete) socket.destroy();
    else if (closeWanted) close();
  };
  const count = (chunk) => {
    dropped += chunk.length;
    if (dropped > LINGER_MAX_BYTES) finish();
  };
  const timer = setTimeout(finish, LINGER_MAX_MS);
  request.on("data", count);
  request.once("end", () => {
    clearTimeout(timer);
    request.off("data", count);
    closed = true;
    if (closeWanted) close();
  });
  request.once("close", () => clearTimeout(timer));
  // Node's server closes a `connection: close` answer's socket with destroySoon once it is sent.
  socket.destroySoon = () => {
    closeWanted = true;
    if (closed) close();
  };
}
