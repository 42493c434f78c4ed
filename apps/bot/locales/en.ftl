# English texts of the Telegram bot (apps/bot). Every key here must exist in ru.ftl too
# (bot-i18n.test.ts checks it). Variables: { $name }; numbers choose plural forms.

## /start, /help, commands

help-intro = Send me a voice message, a video note, or an audio or video file, and I will send back the transcript.
help-limits-with-llm = Files up to { $limit } are fine. Under each transcript there are buttons for a summary, action items, a translation and more.
help-limits-without-llm = Files up to { $limit } are fine. Summaries and translations are not available: this server has no language model.
command-help = What I can do
command-settings = Language, output format, summaries, speakers
command-usage = What you have transcribed so far
command-api = Your API key for the HTTP API
command-portal = A one-time link to the web portal
command-cancel = Cancel your recordings waiting or being transcribed
command-language = Language of my messages: English or Russian
portal-link = Your one-time sign-in link to the portal (works once, for { $minutes } minutes):
    { $url }
send-a-recording = Send me a voice message, a video note, or an audio or video file, and I will transcribe it. /help lists what else I can do.
button-gone = This button no longer works.

## /language

language-question = Which language should I speak? Your Telegram is set to { $telegram }.
language-saved = I will speak English from now on.
language-english = English
language-russian = Русский

## Failures (reply-for-error.ts)

error-invalid-input = I couldn't start this: { $detail } You can change your choices with /settings.
error-unauthenticated = Your access could not be checked. Send /start and try again.
error-not-found = I can't find that transcript any more. Send the recording again.
error-link-not-valid = That link doesn't work any more. Send the recording again.
error-too-large = This file is too large: I can take files up to { $limit }. Send a shorter or more compressed recording, or upload it in the web portal (/portal).
error-too-large-for-telegram = This file is too large for me: Telegram lets bots download files of at most { $limit }. Ways around it:
    • upload it in the web portal (/portal gives you a sign-in link);
    • or give the HTTP API a link to the file (/api shows how);
    • or ask whoever runs this bot to connect it to a local Bot API server (TELEGRAM_API_ROOT), which raises the limit to 2 GB.
error-unsupported-media = I can't transcribe this kind of file. Send a voice message, a video note, or an audio or video file.
error-rate-limited = Too many requests at once. Wait a minute and try again.
error-media-unreadable = I couldn't read this file: it isn't audio or video I know, or it is damaged.
error-media-no-audio = This file has no sound, so there is nothing to transcribe.
error-upstream-refused = { $who ->
    [telegram] Telegram
    [llm] The language model
   *[other] The other side
  } refused to hand over what I needed. Try again in a minute.
error-upstream-unreachable = { $who ->
    [telegram] Telegram
    [llm] The language model
   *[other] The other side
  } did not answer in time. Try again in a minute.
error-address-not-allowed = That address points into a private network, which I'm not allowed to use.
error-recognition-failed = Speech recognition failed on this recording. Try again; if it keeps failing, tell the operator.
error-recognition-unreachable = The speech recognition server did not answer. Try again in a few minutes.
error-engine-unavailable = Speech recognition is not available on this server right now. Try again later.
error-cache-changed = Another request changed this transcript at the same moment. Send the recording again.
error-service-busy = I'm busy with other recordings right now. Try again in a few minutes.
error-post-processing-failed = The language model could not do this right now. Try again in a few minutes.
error-internal = Something went wrong on my side. Try again; if it keeps happening, tell the operator.
error-no-speech = I couldn't hear any speech in this recording, so there is no transcript. If someone does speak, check the language in /settings.
error-still-running = This recording is taking longer than expected. Try again later, or send a shorter recording.
error-stopped = I was restarted while working on this. Please send it again.
error-no-language-model = Summaries, translations and the like need a language model, and none is configured on this server.

## Status message (describe-progress.ts)

progress-downloading = ⏳ Getting the file from Telegram…
progress-received = ✅ File received ({ $size })
progress-waiting = ⏳ Waiting in the queue…
progress-waiting-next = ⏳ Waiting in the queue (next in line)…
progress-waiting-ahead = ⏳ Waiting in the queue ({ $ahead } ahead)…
progress-decoding = ⏳ Decoding the audio…
progress-decoded = ✅ Audio decoded ({ $seconds } s)
progress-looking = ⏳ Looking for speech…
progress-no-speech = ✅ Looked for speech: none found
progress-speech = ✅ Speech found ({ $seconds } s)
progress-recognising = ⏳ Recognising speech… { $percent }%
progress-recognised = ✅ Speech recognised
progress-done = ✅ Done: the transcript follows.

## Transcripts and files

long-text-caption = The whole text ({ $chars } characters) is in this file.
caption-txt = Transcript (.txt)
caption-srt = Subtitles (.srt)
caption-docx = Transcript (.docx)
caption-pdf = Transcript (.pdf)
making-file = Making the file…

## Buttons under a transcript

button-more = More…
button-speakers = 👥 Speakers…
button-back = ◀ Back
button-rerun = Re-run with { $count ->
    [one] { $count } speaker
   *[other] { $count } speakers
  }
speakers-hint = For this recording only; /settings keeps your defaults.
rerun-started = Transcribing again with { $count ->
    [one] { $count } speaker
   *[other] { $count } speakers
  }…
recording-gone = I can't find the recording this transcript came from any more. Send it again.
pick-language = Pick the language, or type its name.
unknown-language = I don't know that language. Type its name or code (e.g. German, deutsch or de), or pick a button.
working-on-it = Working on it…
result-working = ⏳ { $title }: working on it…
result-done = ✅ { $title }
result-failed = { $title }: { $reply }
result-title-language = { $title } ({ $language })
no-speaker-names = No speaker names were found.
result-empty = The result is empty.

## Post-processing types (spec 2.4)

type-summary = Summary
type-gist = Gist
type-detailed = Detailed retelling
type-meeting_minutes = Meeting minutes
type-lecture_notes = Lecture notes (Russian)
type-simple = Simple explanation
type-key_facts = Key facts
type-action_items = Action items
type-chapters = Chapters
type-blog_post = Blog post
type-article = Article
type-quiz = Quiz
type-customer_insights = Customer insights
type-clean_up = Cleaned-up text
type-translation = Translation
type-translated_subtitles = Translated subtitles
type-speaker_names = Speaker names

## API menu and keys

api-menu = API access

    Use the transcription API from your own programs with a personal key. Work done with it counts as yours.

    Press “Get token” to get your key. Pressing it again issues a new key, and the previous one stops working { $delay }.
button-get-token = 🔑 Get token
button-usage = 📊 Usage
key-first = 🔑 Your API key. With it, your own programs (scripts, apps, automations) can send recordings to the transcription API; what they transcribe counts as your usage, like the recordings you send here.
    Keep it like a password: in a password manager, an environment variable or a secret store, never in source code or a shared chat. If it leaks, press “Get token” again: you get a new key and this one stops working { $delay }.
key-reissued = 🔑 Your new API key. Your previous key stops working { $delay }: put the new one wherever the old one was used.
key-shown-once = It is shown only this once: store it now.
key-try-it = Try it:
key-then = Then read the <code>urls.get</code> address of the answer with the same header until <code>status</code> is <code>succeeded</code>. Prediction clients take the base URL and the key as their token.
delay-now = now
delay-minutes = in { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
  }
delay-seconds = in { $seconds } seconds
button-delete-key-now = 🗑 Delete this message
button-delete-key-later = ⏲ Delete it in 10 minutes
key-delete-later = I will delete this message in 10 minutes. Copy the key before then.
key-delete-failed = I could not delete it: please delete the message yourself.

## /usage

usage-none = You have not transcribed anything yet. Send me a voice message to start.
usage-title = Your usage so far:
usage-place = • { $place ->
    [bot] In this chat
    [api] Through the API
    [portal] In the account portal
   *[other] { $place }
  }: { $count ->
    [one] { $count } recording
   *[other] { $count } recordings
  } ({ $done } done), { $minutes } min of audio
usage-charged = Charged in the last { $days } days: { $minutes } min of audio{ $amount }{ $free }.
usage-amount = , amount { $amount }
usage-free = ; { $count } free repeats

## /settings

settings-now = Your settings now:
    { $settings }

    These are your defaults for every recording. Let's go through them. Send /cancel to stop without saving.
settings-saved = Saved. From now on:
    { $settings }
settings-unchanged = Settings unchanged.
settings-line-language = • Language: { $value }
settings-line-format = • Transcript as: { $value }
settings-line-types = • After each transcript: { $value }
settings-line-speakers = • Speakers: { $value }
settings-automatic = automatic
settings-none = none
settings-question-language = Which language is spoken in your recordings? You can also type its name or code (e.g. German, deutsch, de).
settings-question-format = How should I send transcripts?
settings-question-types = What should I make after every transcript? Tap to choose (at most { $max }), then Done.
settings-question-speakers = How many people usually speak? "Automatic" finds out for each recording; for a single recording, use "Speakers…" under its transcript instead. You can also type a number.
settings-pick-a-button = Please pick one of the buttons above (or /cancel).
settings-tap-then-done = Tap the buttons above, then Done.
settings-chosen = { $count } chosen
settings-closed = That question is closed.
choice-automatic = Automatic
choice-done = Done
format-messages = Chat messages
format-txt = .txt file with times
format-srt = .srt subtitles

## Cancel (handle-cancel.ts, the ✖ Cancel button)

button-cancel = ✖ Cancel
canceled-reply = ✖ Canceled: this recording will not be transcribed.
canceled-short = Canceled.
nothing-to-cancel = There is nothing to cancel: none of your recordings is waiting or being transcribed.
cannot-cancel = Only the person who sent this recording can cancel it, and only before it is done.
canceled-list = Canceled { $count ->
    [one] { $count } recording
   *[other] { $count } recordings
  }:
canceled-fetching = • { $name } (was being fetched from Telegram)
canceled-running = • { $name } (was being transcribed)
canceled-waiting = • { $name } (was waiting in the queue)

## Groups (handle-group-chats.ts)

group-private-only = API keys, portal links, settings and usage are private: I only handle them in a private chat with me. Open @{ $bot } and send the command there.
group-help = Hi! To have a voice message transcribed here, reply to it with a mention of me (@{ $bot }), or mention me in the caption of a recording.
    A group admin can have me transcribe every recording with /autotranscribe on (and stop with /autotranscribe off).
    Each transcription is charged to the person who asked. API keys and settings are private-chat only.
group-transcribe-all-now = I transcribe every recording in this group.
group-transcribe-mentioned-now = I transcribe recordings only when mentioned or replied to.
group-admin-can-change = A group admin can change it with /autotranscribe on or /autotranscribe off.
group-admins-only = Only a group admin can change this.
group-transcribe-all-done = Done: I will transcribe every recording in this group.
group-transcribe-mentioned-done = Done: I will transcribe recordings only when mentioned or replied to.
group-setting-in-private = This is a group setting: send it in a group I am a member of.
group-hint = Reply to a voice message or a recording with a mention of me, and I will transcribe it.
