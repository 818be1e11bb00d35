// Reading a POST body without trusting its size: refused as soon as it passes the limit, whether the
// client declared its length or streamed it.

/** The body text, or `tooLarge` when it exceeds `limit` bytes (read no further than that). */
export async function readBody(
  request: Request,
  limit: number,
): Promise<{ text: string } | { tooLarge: true }> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return { tooLarge: true };
  if (request.body === null) return { text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  // Invalid UTF-8 becomes U+FFFD and then, at worst, a JSON parse error (-32700).
  return { text: new TextDecoder().decode(bytes) };
}
