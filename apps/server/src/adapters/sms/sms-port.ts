// The SMS port: how the server sends a verification code. Live deployments plug in a provider's
// adapter with the same shape; paper mode uses the sandbox, which only records what it would send.

export type SmsMessage = { to: string; text: string; code: string; at: number };

export interface SmsPort {
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
}
