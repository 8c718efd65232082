/** wawoff2 (Google's woff2 in WebAssembly) ships no types; the one function used here. */
declare module 'wawoff2' {
  const wawoff2: {
    decompress(input: Uint8Array): Promise<Uint8Array>;
    compress(input: Uint8Array): Promise<Uint8Array>;
  };
  export default wawoff2;
}
