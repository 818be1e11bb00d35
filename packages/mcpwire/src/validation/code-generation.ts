// Whether this runtime compiles code from strings: Ajv needs it, Cloudflare Workers and strict
// Content-Security-Policy pages forbid it (EvalError "Code generation from strings disallowed").

let isAllowed: boolean | undefined;

/**
 * True when `new Function` works here. Probed once, on the first call, with an empty function body;
 * the default validator asks only when it first needs a validator, never at module load.
 */
export function canGenerateCode(): boolean {
  if (isAllowed === undefined) {
    try {
      // The probe itself: the only way to know is to try (the Function constructor is the eval Ajv uses).
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      isAllowed = typeof new Function('') === 'function';
    } catch {
      isAllowed = false;
    }
  }
  return isAllowed;
}
