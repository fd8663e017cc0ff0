// The apiserver's named-format CEL library (k8s.io/apiserver/pkg/cel/library/format.go):
// `format.named("dns1123Label")` or `format.dns1123Label()` gives a format, whose
// `validate(string)` is none when the string is valid and otherwise the list of errors.
import { Optional, type Environment } from '@marcbachmann/cel-js';
import { goQuote, labelValueErrors, qualifiedNameErrors } from '../labels.js';
import { nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain } from '../validation/meta.js';

/** kubernetes.NamedFormat. */
class NamedFormat {
  constructor(
    readonly name: string,
    readonly validate: (s: string) => string[],
  ) {}
}

class FormatNamespace {}

const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;
/** Standard base64 with padding, as Go's base64.StdEncoding decodes it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** RFC 3339 date-time, the layouts strfmt's ParseDateTime accepts (seconds' fraction and zone optional). */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?$/;

function isDate(s: string): boolean {
  const m = FULL_DATE.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  return m !== null && isDate(m[1]!) && Number(m[2]) < 24 && Number(m[3]) < 60 && Number(m[4] ?? 0) < 60;
}

/** url.ParseRequestURI's verdict: an absolute URI or an absolute path, no fragment. */
function requestURIErrors(s: string): string[] {
  const invalid = [`parse ${goQuote(s)}: invalid URI for request`];
  if (s.startsWith('/')) return [];
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(s);
  if (!scheme) return invalid;
  try {
    new URL(s);
    return [];
  } catch {
    return invalid;
  }
}

const NAMED_FORMATS: ReadonlyMap<string, NamedFormat> = new Map(
  (
    [
      ['dns1123Label', 'DNS1123Label', (s) => nameIsDNSLabel(s, false)],
      ['dns1123Subdomain', 'DNS1123Subdomain', (s) => nameIsDNSSubdomain(s, false)],
      ['dns1035Label', 'DNS1035Label', (s) => nameIsDNS1035Label(s, false)],
      ['qualifiedName', 'QualifiedName', qualifiedNameErrors],
      ['dns1123LabelPrefix', 'DNS1123LabelPrefix', (s) => nameIsDNSLabel(s, true)],
      ['dns1123SubdomainPrefix', 'DNS1123SubdomainPrefix', (s) => nameIsDNSSubdomain(s, true)],
      ['dns1035LabelPrefix', 'DNS1035LabelPrefix', (s) => nameIsDNS1035Label(s, true)],
      ['labelValue', 'LabelValue', labelValueErrors],
      ['uri', 'URI', requestURIErrors],
      ['uuid', 'uuid', (s) => (UUID.test(s) ? [] : ['does not match the UUID format'])],
      ['byte', 'byte', (s) => (BASE64.test(s) ? [] : ['invalid base64'])],
      ['date', 'date', (s) => (isDate(s) ? [] : ['invalid date'])],
      ['datetime', 'datetime', (s) => (isDateTime(s) ? [] : ['invalid datetime'])],
    ] as const satisfies readonly (readonly [string, string, (s: string) => string[]])[]
  ).map(([key, name, validate]) => [key, new NamedFormat(name, validate)]),
);

const FORMAT = 'kubernetes.NamedFormat';

/** Registers `format.named`, a `format.<name>()` per named format, and `validate`. */
export function registerFormatLibrary(env: Environment): Environment {
  env
    .registerType(FORMAT, NamedFormat)
    .registerType('kubernetes.FormatNamespace', FormatNamespace)
    .registerConstant('format', 'kubernetes.FormatNamespace', new FormatNamespace())
    .registerFunction(`kubernetes.FormatNamespace.named(string): optional<${FORMAT}>`, (_: FormatNamespace, name: string) => Optional.of(NAMED_FORMATS.get(name)))
    .registerFunction(`${FORMAT}.validate(string): optional<list<string>>`, (f: NamedFormat, s: string) => {
      const errors = f.validate(s);
      return errors.length === 0 ? Optional.none() : Optional.of(errors);
    });
  for (const [key, f] of NAMED_FORMATS) env.registerFunction(`kubernetes.FormatNamespace.${key}(): ${FORMAT}`, () => f);
  return env;
}
