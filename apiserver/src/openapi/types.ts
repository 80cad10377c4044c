/** A JSON schema node as used in OpenAPI documents (loosely typed: extensions abound). */
export type Schema = { [key: string]: unknown };
