// The Node-only parts of mcpwire/auth (`mcpwire/auth/node`): a token store in a file, and a fetch
// that checks the address of every connection it makes.

export { createFileTokenStore, type FileTokenStoreOptions } from './file-token-store.ts';
export type { LockHolder } from './file-lock.ts';
export {
  createAddressCheckedFetch,
  PrivateAddressError,
  type AddressCheckedFetchOptions,
} from './address-checked-fetch.ts';
