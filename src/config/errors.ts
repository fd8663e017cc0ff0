// How a bad configuration is reported: one error carrying the file and every field problem, so
// the CLI prints them all and exits 2 (cmd/kube-scheduler/app/options reports the aggregate).
import type { FieldError } from '../api/field_errors.js';
import { BadInputError } from '../util/bad_input.js';

/** A field problem, with its place in the source file when known. */
export interface ConfigIssue extends FieldError {
  /** 1-based line and column in the source, when the path (or the syntax error) has one. */
  readonly line?: number;
  readonly column?: number;
}

/** One line per issue: `file: path: message`, or `file:line:column: message` for syntax errors. */
function formatIssue(file: string, issue: ConfigIssue): string {
  if (issue.path !== '') return `${file}: ${issue.path}: ${issue.message}`;
  if (issue.line !== undefined) return `${file}:${issue.line}:${issue.column ?? 1}: ${issue.message}`;
  return `${file}: ${issue.message}`;
}

export class ConfigError extends BadInputError {
  override name = 'ConfigError';
  /** The file (or source label) the configuration came from. */
  readonly file: string;
  readonly errors: readonly ConfigIssue[];

  constructor(file: string, errors: readonly ConfigIssue[]) {
    super(errors.map((e) => formatIssue(file, e)).join('\n'));
    this.file = file;
    this.errors = errors;
  }
}
