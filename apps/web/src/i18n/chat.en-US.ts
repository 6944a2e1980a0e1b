// English texts of the support chat (user/service, common/service, the serviceJs pages; merged into en-US.ts).
export const chatEnUS = {
  chat: {
    entry: 'Support',
    support: 'Support',
    intro: 'Write to our support team here. Staff answer in the order messages arrive; you will see their reply here.',
    empty: 'No messages yet. How can we help?',
    placeholder: 'Write a message',
    send: 'Send',
    attach: 'Attach an image',
    image: 'Image',
    typing: 'Support is typing…',
    closed: 'This conversation was closed. Write again to start a new one.',
    state: { sent: 'Sent', delivered: 'Delivered', read: 'Read' },
    publicIntro: 'Our support team answers questions about your account, deposits, withdrawals and trading in the app.',
    publicPoint1: 'Sign in and open Support to chat with a staff member; you can attach a photo (JPEG, PNG or WebP).',
    publicPoint2: 'Replies arrive in the order messages come in, and you see when your message was delivered and read.',
    publicPoint3: 'Staff will never ask for your password, trade PIN or a code sent to your phone.',
    signInToChat: 'Sign in to chat',
    widgetIntro: 'Support for this service is provided through a chat window from {{host}}.',
    widgetOpen: 'Open the chat',
    widgetFailed: 'The chat window could not be loaded. Please try again later.',
  },
};
