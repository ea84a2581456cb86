/** A route whose page module is missing or does not export its page (a build mistake). */
export class MissingPageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingPageError';
  }
}
