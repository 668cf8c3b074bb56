/**
 * What the screens say when single sign-on comes back (issue 28; see oidc.ts): kept apart from the
 * schemas so that the signed-out pages can name them without loading zod.
 */

/** Why a single sign-on did not complete: the `oidc_error` of the callback's redirect (never free text in a URL). */
export const OIDC_ERRORS = ['not_linked', 'no_verified_email', 'deactivated', 'expired', 'cancelled', 'failed', 'already_linked', 'invitation', 'not_configured'] as const;
export type OidcError = (typeof OIDC_ERRORS)[number];

/** What the screens say for each `oidc_error`; `label` is the provider's (OIDC_BUTTON_LABEL). */
export function oidcErrorMessage(error: string, label: string): string {
  switch (error as OidcError) {
    case 'not_linked':
      return `No Signalboard account is linked to that ${label} account. Sign in with your password, then link it on the Account screen.`;
    case 'no_verified_email':
      return `Your ${label} account has no verified e-mail address, so it cannot sign in here.`;
    case 'deactivated':
      return 'This account has been deactivated.';
    case 'expired':
      return 'That sign-in took too long or was already used. Please try again.';
    case 'cancelled':
      return `Sign-in with ${label} was cancelled.`;
    case 'already_linked':
      return `That ${label} account is already linked to another Signalboard account.`;
    case 'invitation':
      return 'This link no longer works: it has expired, been used or been revoked. Ask for a new one.';
    case 'not_configured':
      return 'Single sign-on is not set up on this installation.';
    default:
      return `Signing in with ${label} did not work. Please try again.`;
  }
}

/** `/dashboard/account#oidc=linked`: the link was made. */
export const oidcLinkedMessage = (label: string) => `Your ${label} account is linked: you can sign in with it.`;
