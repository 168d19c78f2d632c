/** The notices page: every notice of the signed-in person, across their organizations. */
export const NOTICES_PATH = '/notices';
