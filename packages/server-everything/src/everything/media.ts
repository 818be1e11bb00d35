// Small binary fixtures of the everything server, as base64: the smallest valid file of each kind.

/** A 1x1 red PNG (what the conformance suite's image checks expect: `image/png`, base64). */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A valid WAV file: 8 kHz mono 16-bit PCM, two samples of silence (`audio/wav`). */
export const WAV_BASE64 = 'UklGRigAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQQAAAAAAAAA';

/** A blue dot as an SVG `data:` URI, for `icons` (ICON-*: a data URI needs no fetch). */
export const ICON_DATA_URI =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxNiAxNiI+PGNpcmNsZSBjeD0iOCIgY3k9IjgiIHI9IjciIGZpbGw9IiMyNTYzZWIiLz48L3N2Zz4=';
