/** Awaits `promise` and returns the error it rejected with; throws when it resolved instead. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure, got success');
}
