// A real drand quicknet round (https://api.drand.sh/52db9ba7…c84e971/public/123), as published: tests
// check the BLS verification against it, so a wrong key, message or hash-to-curve tag cannot pass.
export const QUICKNET_123 = {
  round: 123,
  randomness: 'fb8f7bc29bf24db51871ec8c79f3a1e4bd0557bc0dfcee9ed1d924e69d1c60dc',
  signature: 'b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92',
} as const;
