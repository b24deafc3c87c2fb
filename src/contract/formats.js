// The string formats the specs use, as the generated validators check them. Ajv compiles against this
// module, and esbuild bundles it into each generated validator file, so both read the same definitions.
// They follow ajv-formats' "full" mode, except that int64 stops at the safe-integer range (larger numbers
// lose precision in JSON.parse).

const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;

const isLeapYear = (year) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** RFC 3339 full-date. */
function isDate(text) {
  const match = DATE.exec(text);
  if (!match) return false;
  const year = +match[1];
  const month = +match[2];
  const day = +match[3];
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]);
}

/** RFC 3339 full-time: the time zone is required; a leap second is accepted at 23:59:60 UTC only. */
function isTime(text) {
  const match = TIME.exec(text);
  if (!match?.[4]) return false;
  const hour = +match[1];
  const minute = +match[2];
  const second = +match[3];
  const zoneSign = match[5] === "-" ? -1 : 1;
  const zoneHour = +(match[6] || 0);
  const zoneMinute = +(match[7] || 0);
  if (zoneHour > 23 || zoneMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  const utcMinute = minute - zoneMinute * zoneSign;
  const utcHour = hour - zoneHour * zoneSign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

export const formats = {
  uuid: (text) => UUID.test(text),
  "date-time": (text) => {
    const parts = text.split(/t|\s/i);
    return parts.length === 2 && isDate(parts[0]) && isTime(parts[1]);
  },
  int32: { type: "number", validate: (n) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 },
  int64: { type: "number", validate: (n) => Number.isSafeInteger(n) },
};
