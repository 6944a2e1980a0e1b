// English texts of the sentiment vote (stock/vote, stock/voteUrl), the install pages (common/download,
// androidAPP, iosAPP) and the staff-edited pages (companyIntroduction, loanService); merged into en-US.ts.
export const pagesEnUS = {
  vote: {
    entry: 'Sentiment vote',
    entryHint: 'What customers think of this stock today',
    question: 'Where do you think {{symbol}} is heading?',
    session: 'Votes for the session of {{date}}',
    bullish: 'Bullish',
    bearish: 'Bearish',
    confirmTitle: 'Vote {{side}} on {{symbol}}?',
    confirmBody: 'You have one vote per stock each trading day. It cannot be changed until the next trading day.',
    confirm: 'Vote',
    cancel: 'Cancel',
    voted: 'Vote recorded',
    mine: 'Your vote for this session: {{side}}',
    votes_zero: 'no votes',
    noVotesDay: 'No votes',
    votes_one: '{{count}} vote',
    votes_other: '{{count}} votes',
    noVotes: 'No votes yet for this session.',
    recent: 'Recent sessions',
    disclaimer:
      'This shows only what customers who voted think. It is not advice, and it has no effect on prices: prices come from the market, never from votes.',
    votingPage: 'Shareholder voting page',
    votingPageHint: 'A page the platform links to for this stock',
  },
  voteUrl: {
    none: 'No voting page has been set for this stock.',
    address: 'Address',
    openOutside: 'Open in the browser',
    notFramed:
      'This address is not on the list of sites the app may show inside itself. Open it in your browser and check the address before you sign in anywhere.',
    framedNote:
      'Shown inside the app from {{host}}. If it stays blank, the site does not allow it: open it in the browser.',
    frameTitle: 'Voting page from {{host}}',
  },
  install: {
    intro:
      'This app is a web app (a PWA): you install it from your browser, not from an app store. It then opens from your home screen like any other app, in its own window. There is no separate download or APK file.',
    installed: 'You are using the installed app.',
    button: 'Install the app',
    buttonHint: 'Your browser offers to install this app.',
    noPrompt: 'Your browser has not offered an install button here. Follow the steps for your phone below.',
    accepted: 'Installing… the app will appear on your home screen.',
    dismissed: 'Not installed. You can install it later from the browser menu.',
    android: 'Android',
    ios: 'iPhone and iPad',
    androidSteps: {
      s1: 'Open this site in Chrome.',
      s2: 'Tap the menu (⋮) at the top right.',
      s3: 'Tap "Install app" (on some phones "Add to Home screen").',
      s4: 'Confirm. The app appears on your home screen and in your app list.',
    },
    iosSteps: {
      s1: 'Open this site in Safari.',
      s2: 'Tap the Share button (the square with an arrow).',
      s3: 'Scroll down and tap "Add to Home Screen".',
      s4: 'Tap "Add". The app appears on your home screen.',
    },
    iosNote:
      'On iPhone and iPad only Safari can add the app to the home screen; other browsers there may not offer it.',
    androidNote: 'Other browsers (Edge, Samsung Internet, Firefox) have a similar entry in their menu.',
    seeAndroid: 'Steps for Android',
    seeIos: 'Steps for iPhone and iPad',
    updates: 'The installed app updates itself when you open it; your account and data stay on the server.',
  },
  infoPage: {
    updated: 'Last updated {{date}}',
    about: 'About the company',
    loans: 'Loan service',
  },
};
