// The checks a form answer must pass before it is sent: what the 2025-11-25 elicitation schema lets a
// field ask for (StringSchema `format` email/uri/date/date-time and minLength/maxLength; NumberSchema
// minimum/maximum). Pure; each returns the reason to show, or undefined when the answer passes.

/** The part of a property schema the checks read. */
export interface CheckedField {
  format?: unknown;
  minLength?: unknown;
  maxLength?: unknown;
  minimum?: unknown;
  maximum?: unknown;
}

// A pragmatic mailbox (RFC 5321 without quoted local parts or address literals): a local part of no
// space or special character, one @, then host labels of letters, digits and hyphens between dots.
const LOCAL_PART = /^[^\s@"(),:;<>[\\\]]+$/;
const HOST_LABEL = /^[A-Za-z0-9-]+$/;
// RFC 3986 scheme, then anything URL can parse.
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 date-time: full-date "T" partial-time (fractional seconds optional) time-offset.
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** The reason a string answer breaks `field`'s format or length bounds (lengths in code points). */
export function checkString(value: string, field: CheckedField): string | undefined {
  const length = [...value].length;
  if (typeof field.minLength === 'number' && length < field.minLength)
    return `At least ${field.minLength} characters`;
  if (typeof field.maxLength === 'number' && length > field.maxLength)
    return `At most ${field.maxLength} characters`;
  switch (field.format) {
    case 'email':
      return isEmail(value) ? undefined : 'Expected an email address, such as name@example.com';
    case 'uri':
      return URI_SCHEME.test(value) && URL.canParse(value)
        ? undefined
        : 'Expected a URI with its scheme, such as https://example.com/path';
    case 'date':
      return isFullDate(value) ? undefined : 'Expected a date as YYYY-MM-DD';
    case 'date-time':
      return isDateTime(value)
        ? undefined
        : 'Expected a date-time as YYYY-MM-DDThh:mm:ss with Z or an offset, such as 2026-12-06T10:00:00Z';
    default:
      return undefined;
  }
}

/** The reason a number answer is outside `field`'s minimum/maximum (both inclusive). */
export function checkNumber(value: number, field: CheckedField): string | undefined {
  if (typeof field.minimum === 'number' && value < field.minimum) return `At least ${field.minimum}`;
  if (typeof field.maximum === 'number' && value > field.maximum) return `At most ${field.maximum}`;
  return undefined;
}

function isEmail(value: string): boolean {
  const [local, host, ...rest] = value.split('@');
  return (
    rest.length === 0 &&
    host !== undefined &&
    LOCAL_PART.test(local!) &&
    host.split('.').every((label) => HOST_LABEL.test(label))
  );
}

function isFullDate(value: string): boolean {
  const parts = FULL_DATE.exec(value);
  if (parts === null) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 02-30 over into March: a real day comes back as itself.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isDateTime(value: string): boolean {
  const parts = DATE_TIME.exec(value);
  if (parts === null || !isFullDate(parts[1]!)) return false;
  const [hour, minute, second] = [Number(parts[2]), Number(parts[3]), Number(parts[4])];
  // Second 60 is a leap second (RFC 3339 5.6); an offset is at most 23:59.
  const isOffsetValid = parts[5] === undefined || (Number(parts[5]) <= 23 && Number(parts[6]) <= 59);
  return hour <= 23 && minute <= 59 && second <= 60 && isOffsetValid;
}
