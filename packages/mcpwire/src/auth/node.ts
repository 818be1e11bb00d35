// The Node-only parts of mcpwire/auth (`mcpwire/auth/node`): a token store in a file, and a fetch
// that checks the address of every connection it makes.

export { createFileTokenStore } from './file-token-store.ts';
export {
  createAddressCheckedFetch,
  PrivateAddressError,
  type AddressCheckedFetchOptions,
} from './address-checked-fetch.ts';
