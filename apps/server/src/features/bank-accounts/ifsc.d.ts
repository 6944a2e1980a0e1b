// The `ifsc` package (Razorpay) ships no types; we use only its offline check.
declare module 'ifsc' {
  const ifsc: { validate(code: string): boolean };
  export default ifsc;
}
