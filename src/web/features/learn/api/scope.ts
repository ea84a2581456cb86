/** A Supabase error as an Error with the service's message (what the screens show). */
export function serviceError(error: { message: string }): Error {
  return new Error(error.message);
}
