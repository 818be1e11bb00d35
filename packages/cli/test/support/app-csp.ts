// The Content-Security-Policy a host puts on an MCP Apps view, built from the view's `_meta.ui.csp`
// (SEP-1865 "CSP construction"), and the view's HTML with that policy in its head.

/** The `_meta.ui.csp` lists (each optional). */
export type ViewCsp = Partial<
  Record<'connectDomains' | 'resourceDomains' | 'frameDomains' | 'baseUriDomains', string[]>
>;

/** The policy: inline script and style allowed, every network origin only as the lists allow; no lists, none at all. */
export function cspOf(csp: ViewCsp = {}): string {
  const list = (domains: string[] | undefined, none: string) => (domains?.length ? domains.join(' ') : none);
  const resources = csp.resourceDomains?.join(' ') ?? '';
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
  ].join('; ');
}

/** `html` with a `<meta http-equiv="Content-Security-Policy">` of {@link cspOf} first in its head. */
export function withCsp(html: string, csp: ViewCsp = {}): string {
  if (!html.includes('<head>')) throw new Error('the view has no <head> to put its CSP in');
  return html.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${cspOf(csp)}">`);
}
