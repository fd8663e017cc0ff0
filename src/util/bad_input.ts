// The one base class of errors caused by what the user gave (flags, files, configurations,
// scenarios, plugin modules), so every front end recognises bad input with `instanceof`: the CLI
// exits with its bad-input status and prints only the message, the workbench answers 400.

/** Bad input: the message names the file or field and the reason; no stack is worth showing. */
export class BadInputError extends Error {}
