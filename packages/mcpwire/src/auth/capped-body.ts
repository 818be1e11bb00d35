// Reading a peer's response body up to a cap: the bytes are counted as they arrive and the stream is
// cancelled (the connection dropped) at the cap, so a body that never ends costs no more than that.

/**
 * The body of `response` as UTF-8 text, or undefined when it is longer than `maxBytes` (the rest is
 * then not read: the body is cancelled). A body already used or absent reads as ''.
 */
export async function readCappedText(response: Response, maxBytes: number): Promise<string | undefined> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
