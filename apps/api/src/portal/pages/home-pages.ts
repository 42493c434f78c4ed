import { describePortalOwner } from '@transcribe/core';
import { html, type SafeHtml } from '../html.ts';
import type { PortalRequestSession } from '../portal-session.ts';

/** The portal's front page for a signed-out visitor: how to get a sign-in link (no passwords). */
export function signedOutHome(signedOutJustNow: boolean): SafeHtml {
  return html`${signedOutJustNow ? html`<div class="notice" role="status"><p>You are signed out.</p></div>` : ''}
<p>Here you get your API key, transcribe recordings in the browser and see what you used.</p>
<h2>Sign in</h2>
<p>There are no passwords. You sign in with a one-time link that works for 15 minutes:</p>
<ul class="steps">
  <li><strong>With the Telegram bot:</strong> send it <code>/portal</code> and open the link it answers with.</li>
  <li><strong>On your own server:</strong> run <code>npm run portal -- login-link</code> and open the link it prints.</li>
</ul>
<p>You can also read the <a href="/portal/reference">API reference</a> without signing in.</p>`;
}

/** The page a sign-in link opens: one button, so link previews (which only GET) never use the link up. */
export function loginConfirmPage(token: string, formToken: string): SafeHtml {
  return html`<p>This one-time link signs you in to the transcription portal on this browser.</p>
<form method="post" action="/portal/login" class="stack">
  <input type="hidden" name="token" value="${token}">
  <input type="hidden" name="login_csrf" value="${formToken}">
  <button type="submit" class="primary" autofocus>Sign in</button>
</form>`;
}

/** The signed-in home page: the three things to do, in order. */
export function signedInHome(session: PortalRequestSession, hasKey: boolean): SafeHtml {
  return html`<p>Welcome, ${describePortalOwner(session.owner)}.</p>
<ol class="cards">
  <li><h2><a href="/portal/api">${hasKey ? 'Your API key' : 'Get your API key'}</a></h2>
    <p>A key lets your own programs use the transcription API (Python, JavaScript or curl examples included).</p></li>
  <li><h2><a href="/portal/transcribe">Transcribe a recording</a></h2>
    <p>Upload an audio or video file, or paste a link, and read the transcript with speakers and times.</p></li>
  <li><h2><a href="/portal/usage">See your usage</a></h2>
    <p>Every transcription with its status, length and charge, and the audio minutes per day.</p></li>
</ol>`;
}
