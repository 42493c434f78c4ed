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
token-see-api = Your API key is under /api: send /api and press “🔑 Get token”.

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
progress-waiting-eta = 🕒 About { $minutes } min until it starts
progress-decoding = ⏳ Decoding the audio…
progress-decoded = ✅ Audio decoded ({ NUMBER($seconds, minimumFractionDigits: 1, maximumFractionDigits: 1) } s)
progress-looking = ⏳ Looking for speech…
progress-no-speech = ✅ Looked for speech: none found
progress-speech = ✅ Speech found ({ NUMBER($seconds, minimumFractionDigits: 1, maximumFractionDigits: 1) } s)
progress-recognising = ⏳ Recognising speech… { $percent }%
progress-recognising-started = ⏳ Recognising speech…
progress-recognised = ✅ Speech recognised
progress-finished = ✅ Transcribed: { $duration } of audio.
size-mib = { NUMBER($value, minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: 0) } MiB
size-kib = { NUMBER($value, useGrouping: 0) } KiB

## Transcripts and files

long-text-caption = The whole text ({ $chars } characters) is in this file.
doubtful-note = Passages in italics are doubtful: the recogniser was unsure of them, heard no speech there or looped, so they may be misheard or invented.
caption-txt = Transcript (.txt)
caption-srt = Subtitles (.srt)
caption-docx = Transcript (.docx)
caption-pdf = Transcript (.pdf)
making-file = Making the file…
file-heading-details = Sent { $date } · { $duration }
recording-unnamed = Transcript

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

## Naming speakers ("Name speakers" under a transcript with two or more speakers)

button-name-speakers = 🏷 Name speakers
button-skip-speaker = Skip
naming-preparing = Cutting a short excerpt of each speaker…
naming-one-speaker = Only one voice speaks in this recording: there is nobody to tell apart.
naming-ask = Speaker { $index } of { $total } ({ $label }). Who is this? Reply with their name, or press Skip.
naming-ask-group = Speaker { $index } of { $total } ({ $label }). Who is this? Reply to this message with their name, or press Skip.
naming-name-invalid = I can't use that name: { $detail } Reply with another name, or press Skip.
naming-name-twice = You already gave the name “{ $name }” to another speaker of this recording. Reply with another name, or press Skip.
naming-saved = ✅ { $label } is { $name }. I'll recognise this voice in your next recordings.
naming-added = ✅ { $label } is { $name }: I added this to the voice “{ $name }” you named before.
naming-too-little = { $label } speaks too little in this recording to remember the voice ({ $seconds } s; at least { $min } s are needed). Skipped.
naming-full = You already have { $max ->
    [one] { $max } named voice
   *[other] { $max } named voices
  }, the most allowed, so “{ $name }” was not saved. Delete one through the API (DELETE /v1/voices/…) first.
naming-skipped = { $label } skipped.
naming-done = Done: { $count ->
    [0] no voice named.
    [one] { $count } voice named.
   *[other] { $count } voices named.
  }
naming-done-off = Recognising named voices is switched off in /settings, so your next recordings keep the labels SPEAKER_1, SPEAKER_2, … Switch it on there to use the names.
naming-renamed = The transcript with the names follows.
naming-gone = This naming has ended. Press “Name speakers” under the transcript to start again.
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
key-base-urls = The base URL, for each kind of client:
key-client-python = Python client (pip install replicate):
key-client-npm = JavaScript client (npm install replicate):
key-client-openai = OpenAI SDKs and tools, for the OpenAI-compatible endpoint /v1/audio/transcriptions:
key-model = Model:
key-model-openai = with the OpenAI SDKs:
key-try-it = Try it:
key-then = Then read the <code>urls.get</code> address of the answer with the same header until <code>status</code> is <code>succeeded</code>. Each client takes its base URL above and the key as its token; the web portal (/portal) shows an example for each.
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
  } ({ $done } done), { NUMBER($minutes, minimumFractionDigits: 1, maximumFractionDigits: 1) } min of audio
usage-charged = Charged in the last { $days } days: { NUMBER($minutes, minimumFractionDigits: 1, maximumFractionDigits: 1) } min of audio{ $amount }.
usage-amount = , amount { NUMBER($amount, maximumFractionDigits: 2) }
usage-not-charged = Not charged in that time: { $parts }.
usage-canceled = { $count ->
    [one] { $count } canceled recording
   *[other] { $count } canceled recordings
  }{ $minutes ->
    [0] {""}
   *[other] {" "}({ NUMBER($minutes, minimumFractionDigits: 1, maximumFractionDigits: 1) } min)
  }
usage-failed = { $count ->
    [one] { $count } recording that failed
   *[other] { $count } recordings that failed
  }{ $minutes ->
    [0] {""}
   *[other] {" "}({ NUMBER($minutes, minimumFractionDigits: 1, maximumFractionDigits: 1) } min)
  }
usage-from-cache = { $count ->
    [one] { $count } repeat
   *[other] { $count } repeats
  } of a recording already paid for, taken from the cache{ $minutes ->
    [0] {""}
   *[other] {" "}({ NUMBER($minutes, minimumFractionDigits: 1, maximumFractionDigits: 1) } min)
  }

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
settings-line-voices = • Named voices: { $value }
settings-automatic = automatic
settings-none = none
settings-question-language = Which language is spoken in your recordings? You can also type its name or code (e.g. German, deutsch, de).
settings-question-language-only = Which language is spoken in your recordings? { $count ->
    [one] This server recognises only { $languages }.
   *[other] This server recognises { $languages }.
  }
settings-language-not-here = This server recognises only { $languages }, not { $language }. Pick one of the buttons above (or /cancel).
settings-question-format = How should I send transcripts?
settings-question-types = What should I make after every transcript? Tap to choose (at most { $max }), then Done.
settings-question-speakers = How many people usually speak? "Automatic" finds out for each recording; for a single recording, use "Speakers…" under its transcript instead. You can also type a number.
settings-question-voices = Recognise the voices you named? With “🏷 Name speakers” under a transcript you tell me who speaks; with this on, I label those voices by name in your next recordings (also in groups, when you ask).
settings-pick-a-button = Please pick one of the buttons above (or /cancel).
settings-tap-then-done = Tap the buttons above, then Done.
settings-chosen = { $count } chosen
settings-closed = That question is closed.
choice-automatic = Automatic
choice-done = Done
choice-on = On
choice-off = Off
settings-on = on
settings-off = off
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
recording-voice = Voice message
recording-video-note = Video note
recording-label = { $title }, { $duration }, sent { $ago }
recording-label-no-duration = { $title }, sent { $ago }
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

## Web portal (apps/api/src/portal): the same catalogs, so the portal speaks the person's bot language

portal-name = Transcription portal
portal-skip = Skip to content
portal-nav-home = Home
portal-nav-api = API key
portal-nav-transcribe = Transcribe
portal-nav-usage = Usage
portal-nav-reference = API reference
portal-nav-languages = Languages
portal-nav-live = Live
portal-footer = Self-hosted transcription service
portal-footer-openapi = OpenAPI document
portal-signed-in-as = Signed in as
portal-sign-out = Sign out
portal-telegram-user = Telegram user { $id }
portal-signed-out-notice = You are signed out.
portal-intro = Here you get your API key, transcribe recordings in the browser and see what you used.
portal-sign-in-heading = Sign in
portal-no-passwords = There are no passwords. You sign in with a one-time link that works for 15 minutes:
portal-with-bot = With the Telegram bot:
portal-with-bot-how = send it /portal and open the link it answers with.
portal-on-server = On your own server:
portal-on-server-how = run { $command } and open the link it prints.
portal-reference-public = You can also read the { $link } without signing in.
portal-login-explain = This one-time link signs you in to the transcription portal on this browser.
portal-sign-in-button = Sign in
portal-welcome = Welcome, { $name }.
portal-card-key = Get your API key
portal-card-key-have = Your API key
portal-card-key-text = A key lets your own programs use the transcription API (Python, JavaScript, OpenAI SDK or curl examples included).
portal-card-transcribe = Transcribe a recording
portal-card-transcribe-text = Upload an audio or video file, or paste a link, and read the transcript with speakers and times.
portal-card-usage = See your usage
portal-card-usage-text = Every transcription with its status, length and charge, and the audio minutes per day.

portal-error-title-400 = The request could not be read
portal-error-title-401 = Please sign in
portal-error-title-403 = The form could not be accepted
portal-error-title-404 = Not found
portal-error-title-409 = Please try again
portal-error-title-413 = The file is too large
portal-error-title-415 = This kind of request is not accepted
portal-error-title-422 = Please check your input
portal-error-title-429 = Too many requests
portal-error-title-503 = The service is busy
portal-error-title-other = Something went wrong
portal-error-home = Go to the portal’s home page
portal-error-how-to-sign-in = How to sign in
portal-error-details = Details from the service:
portal-no-such-page = There is no such page in the portal.
portal-sign-in-first = Sign in first: send /portal to the Telegram bot, or run "npm run portal -- login-link" on the server, and open the link.
portal-csrf-refused = This form has expired or was sent from another site, so nothing was done. Reload the page and try again.
portal-login-needs-token = This address needs the token of a sign-in link. Open the whole link you were sent.
portal-login-other-browser = This sign-in form was not opened in this browser, or it was open too long. Open your sign-in link again.

portal-key-title = API key
portal-key-new-title = Your new API key
portal-key-intro = Your API key lets your programs use the transcription API. Keep it secret, outside your source code.
portal-key-yours = Your keys
portal-key-none = You have no API key yet.
portal-key-get = Get a key
portal-key-get-new = Get a new key
portal-key-col-prefix = Key starts with
portal-key-col-created = Created
portal-key-col-label = Label
portal-key-col-status = Status
portal-key-works = Works
portal-key-stops-at = Stops working at { $time }
portal-key-when-old-stops = When should your current key stop working?
portal-key-right-away = Right away
portal-key-in-5-minutes = In 5 minutes (time to switch your programs over)
portal-key-replaces = A new key replaces the current one.
portal-key-button = Get key
portal-key-choose-grace = Choose when your current key should stop working: right away or in 5 minutes.
portal-key-shown-once = Here is your new API key. It is shown only this once:
portal-key-copy-now = copy it now and keep it somewhere safe.
portal-key-label = Your new API key
portal-key-copy = Copy key
portal-key-old-gone = Your previous key no longer works.
portal-key-old-stops = Your previous key stops working at { $time }.
portal-key-use = Use it
portal-key-bases = The base URL depends on the client; the model is { $model } (with the OpenAI SDKs: { $openaiModel }).
portal-key-base-python = Python replicate client, base_url:
portal-key-base-npm = npm replicate client, baseUrl:
portal-key-base-openai = OpenAI SDKs and tools (the OpenAI-compatible endpoint /v1/audio/transcriptions), baseURL:
portal-key-full-reference = The full API reference
portal-key-back = Back to your keys
portal-example-curl-note = Put the key into an environment variable, upload a file, then read the prediction until its status is succeeded.
portal-example-python = Python (replicate client)
portal-example-python-note = Install with pip install "replicate<0.32"; set TRANSCRIBE_API_KEY as in the first line of the curl example.
portal-example-js = JavaScript (replicate client)
portal-example-js-note = Install with npm install replicate (Node 18 or newer; save as an .mjs file); set TRANSCRIBE_API_KEY as in the first line of the curl example.
portal-example-openai = Python (OpenAI SDK, OpenAI-compatible endpoint)
portal-example-openai-note = Install with pip install openai; tools that speak OpenAI’s speech-to-text API work the same way with this base URL.
portal-copy-code = Copy code
portal-copy-curl = Copy curl commands
portal-copied = Copied
portal-copied-announce = Copied to the clipboard
portal-copy-failed = Copying did not work: select the text and copy it yourself

portal-transcribe-title = Transcribe a recording
portal-form-errors = Please check the marked field:
portal-recording = Recording
portal-file-label = Audio or video file
portal-file-limit = (up to { $mib } MiB)
portal-or = or
portal-link-label = Link to a recording
portal-format-label = Output format
portal-format-json = JSON: segments and times (default)
portal-format-json2 = JSON with languages and speakers
portal-format-text = Plain text with speakers and times
portal-format-srt = SRT subtitles
portal-format-lrc = LRC (lyrics-style subtitles)
portal-format-hint = Every format can be downloaded afterwards; this one is what the API returns as output.
portal-language-label = Language
portal-language-auto = Detect automatically
portal-language-only = This server recognises only { $languages }.
portal-languages-link = List of languages
portal-speakers-label = Number of speakers
portal-optional = (optional)
portal-no-llm = Summaries, translations and other post-processing need a language model, and none is configured on this server.
portal-post-processing = After the transcript
portal-post-processing-hint = (optional, up to 8)
portal-type-custom = Your own instruction
portal-needs-target = needs a target language
portal-needs-prompt = needs your instruction
portal-target-label = Target language
portal-target-hint = (for Translation and Translated subtitles)
portal-prompt-label = Your instruction
portal-prompt-hint = (for “Your own instruction”)
portal-uploading = Uploading
portal-transcribe-button = Transcribe
portal-uploaded = Uploaded. Opening the transcription…
portal-sending-link = Sending the link…
portal-file-too-large-here = The file is larger than { $mib } MiB, the most this service takes.
portal-upload-failed = The upload failed. Check your connection and try again.
portal-answered-status = The service answered with status { $status }. Try again.
portal-lost-contact = Lost contact with the service. Reload the page to see the status.
portal-choose-file-or-link = Choose a recording file or paste a link to one.
portal-not-both = Choose a file or paste a link, not both.
portal-field-audio = Choose a recording file or paste a link to one (a link starts with http:// or https://).
portal-field-language = This server does not recognise that language.
portal-field-speakers = The number of speakers is a whole number from 1 to 32.
portal-field-output_format = Choose one of the output formats.
portal-field-post_process = Choose at most 8 steps after the transcript.
portal-field-target_language = Choose a target language for Translation and Translated subtitles (and only for them).
portal-field-custom_prompt = Write your instruction for “Your own instruction” (and only with it), at most 8,192 characters.
portal-see-languages = See the { $link }.
portal-languages-link-text = list of languages

portal-status-waiting = Waiting in the queue…
portal-status-getting = Getting the recording…
portal-status-looking = Looking for speech…
portal-status-recognising = Recognising speech…
portal-status-recognising-percent = Recognising speech… { $percent }%
portal-status-finishing = Finishing…
portal-status-cache = Transcript taken from the cache…
portal-status-post-processing = Post-processing the transcript…
portal-status-done = Done
portal-status-canceled = Canceled
portal-status-failed = Failed: { $error }
portal-status-failed-unknown = the transcription did not finish.
portal-queue-next = next in line
portal-queue-ahead = { $count ->
    [one] { $count } recording ahead
   *[other] { $count } recordings ahead
  }
portal-queue-wait-soon = less than a minute
portal-queue-wait-minutes = about { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
  }
portal-queue-wait-hours = about { $hours } hours
portal-prediction-transcript = Transcript
portal-prediction-failed = Failed
portal-prediction-canceled = Canceled
portal-prediction-transcribing = Transcribing
portal-started = started { $time }
portal-of-audio = { $duration } of audio
portal-cancel = Cancel
portal-failed = Failed:
portal-try-another = Try another recording
portal-canceled-text = Canceled: this recording was not transcribed.
portal-downloads = Downloads
portal-download-text = Text
portal-download-srt = SRT subtitles
portal-download-lrc = LRC
portal-download-json = JSON
portal-download-json2 = JSON2
portal-download-docx = Word document
portal-download-pdf = PDF
portal-download-results = Post-processing results
portal-post-processing-results = After the transcript
portal-speakers = Speakers:
portal-doubtful = doubtful
portal-doubtful-note = Shaded passages are doubtful: the recogniser was unsure of them, heard no speech there or looped.
portal-no-speech = No speech was found in this recording.
portal-uploaded-file = uploaded file
portal-inline-data = inline data
portal-no-download-format = There is no download format { $format }; use text, srt, lrc, json, json2, docx, pdf or results.
portal-no-transcript-yet = This transcription has no transcript yet.

portal-usage-title = Usage
portal-usage-window = The last { $days } days: the same period in which repeating a transcription of the same link is free.
portal-usage-transcriptions = Transcriptions
portal-usage-charged = Minutes charged
portal-usage-free = Minutes of free repeats
portal-usage-per-day = Audio minutes per day
portal-usage-nothing = Nothing yet.
portal-usage-transcribe-link = Transcribe a recording
portal-usage-or-key = or use your API key.
portal-col-created = Created
portal-col-recording = Recording
portal-col-made-in = Made in
portal-col-status = Status
portal-col-audio = Audio
portal-col-charge = Charge
portal-place-portal = Portal
portal-place-api = API
portal-place-bot = Telegram bot
portal-state-processing = processing
portal-state-starting = starting
portal-state-succeeded = succeeded
portal-state-failed = failed
portal-state-canceled = canceled
portal-charge-free = free repeat
portal-charge-none = not charged
portal-charged = { $duration } charged
portal-chart-day = { $day }: { $charged } min charged, { $free } min free repeats
portal-chart-key-charged = charged minutes
portal-chart-key-free = free repeats
portal-chart-utc = UTC days
portal-chart-table = Show the numbers as a table
portal-chart-no-audio = No audio in this period.
portal-chart-col-day = Day (UTC)
portal-chart-col-charged = Charged minutes
portal-chart-col-free = Free-repeat minutes
portal-chart-desc = From { $first } to { $last }: { $charged } minutes charged and { $free } minutes of free repeats.

portal-reference-title = API reference
portal-reference-bases = Base URL: { $python } for the Python replicate client; { $npm } for curl and the npm replicate client; { $openai } for the OpenAI SDKs (the OpenAI-compatible endpoint).
portal-reference-auth = Every request sends { $header }.
portal-reference-get-key = Get your key
portal-reference-document = The machine-readable document:
portal-reference-english = The descriptions below are those of the API document, in English.
portal-reference-contents = Reference contents
portal-reference-schemas = Schemas
portal-reference-parameters = Parameters
portal-reference-body = Request body
portal-reference-responses = Responses
portal-reference-required = required
portal-reference-member = Member
portal-reference-type = Type
portal-reference-notes = Notes

portal-languages-title = Languages
portal-languages-intro = Every language here can be a target of Translation. The recording’s language must be one this server recognises.
portal-languages-col-language = Language
portal-languages-col-code = Code
portal-languages-col-recognised = Recognised here
portal-yes = yes
portal-no = no

# Portal: speakers renamed on a transcript, and the voices of the account (docs/portal.md, "Speakers and voices").
portal-nav-voices = Voices
portal-rename-title = Speakers
portal-rename-intro = Give a speaker a name: this page and its downloads show it. Tick "Remember this voice" to keep a voiceprint of the speaker in your Voices, so later transcriptions that ask for known voices name them.
portal-rename-new-name = New name for { $label }
portal-rename-button = Rename
portal-rename-remember = Remember this voice
portal-rename-not-kept = The recording of this transcript is not kept (uploaded files are deleted once transcribed), so voices cannot be remembered from it.
portal-rename-gone = The recording of this transcript is no longer stored, so voices cannot be remembered from it.
portal-renamed = Speaker renamed.
portal-remembered = Speaker renamed and voice remembered as { $name }. See it on the Voices page.
portal-voices-title = Voices
portal-voices-intro = Voices you named on a transcript or enrolled through the API. Transcriptions that ask for known voices name these speakers. Only a voiceprint (numbers measured from the speech) is stored, never the audio; deleting a voice removes it at once.
portal-voices-none = You have no voices yet. On a transcript with several speakers, rename one and tick "Remember this voice".
portal-voices-col-name = Name
portal-voices-col-created = Created
portal-voices-col-speech = Speech
portal-voices-col-excerpt = Sample excerpt
portal-voices-col-action = Action
portal-voices-seconds = { $seconds } s
portal-voices-delete = Delete
portal-voices-delete-named = Delete the voice { $name }
portal-voices-deleted = The voice was deleted; nothing of it is kept.
portal-voices-excerpt-none = No excerpt kept (only the voiceprint is stored).
portal-voices-excerpt-gone = The recording it was taken from is no longer stored.
portal-voices-excerpt-label = Excerpt of { $name }
portal-voices-from-transcript = from this transcript
portal-voices-account = Your voices
portal-voices-manage = Listen to excerpts on the Voices page
portal-voice-error-not-kept = The recording of this transcript is not kept (uploaded files are deleted once transcribed), so the voice cannot be taken from it. The speaker was not renamed.
portal-voice-error-gone = The recording of this transcript is no longer stored, so the voice cannot be taken from it. The speaker was not renamed.
portal-voice-error-no-speech = No speech was found in this speaker's part of the recording, so the voice cannot be remembered. The speaker was not renamed.
portal-voice-error-too-short = This speaker says too little to measure the voice (at least 2 seconds of speech are needed). The speaker was not renamed.
portal-voice-error-too-long = This speaker's part is too long to measure as one sample. The speaker was not renamed.
portal-voice-error-two-voices = This speaker's part holds { $count } voices (the speakers may have been told apart wrongly), so it cannot be remembered as one voice. The speaker was not renamed.
portal-voice-error-limit = You already have { $most } { $most ->
        [one] voice
       *[other] voices
    }, the most allowed. Delete one on the Voices page first. The speaker was not renamed.
portal-voice-error-taken = You already have a voice named { $name }. Choose another name, or delete that voice on the Voices page first. The speaker was not renamed.
portal-voice-error-name = A name must have 1 to 64 characters, no control characters, and must not look like an unnamed speaker's label (SPEAKER_2, A).
portal-voice-error-name-used = Another speaker of this transcript already has that name; choose another.
portal-voice-error-no-speaker = This transcript has no such speaker.
portal-voice-error-no-voice = You have no such voice.
portal-live-title = Live transcription
portal-live-intro = Speak into your microphone: the text of each phrase appears when you pause, with its time from the start. The audio is charged like an upload, and each session is listed under Usage.
portal-live-needs-script = The Live page needs JavaScript: turn it on for this site, or transcribe a recording instead.
portal-live-start = Start
portal-live-stop = Stop
portal-live-turns = Phrases
portal-live-no-turns = Nothing recognised yet.
portal-live-status-idle = Press Start and allow the microphone.
portal-live-status-mic = Asking for the microphone…
portal-live-status-connecting = Connecting…
portal-live-status-listening = Listening.
portal-live-status-speech = Hearing speech…
portal-live-status-finishing = Finishing the last phrase…
portal-live-status-stopped = Stopped.
portal-live-recognising = recognising…
portal-live-no-words = (no words recognised)
portal-live-turn-failed = not recognised: { $reason }
portal-live-error-insecure = The microphone is only available on a secure page (https, or localhost). Open the portal at its https address.
portal-live-error-unsupported = This browser cannot process microphone audio here (no AudioWorklet). Try a current Chrome, Edge, Firefox or Safari.
portal-live-error-denied = The browser was not allowed to use the microphone. Allow it (the icon in the address bar, or the site settings) and press Start again.
portal-live-error-no-mic = No microphone was found. Connect one and press Start again.
portal-live-error-mic = The microphone could not be opened ({ $reason }).
portal-live-error-connect = Could not connect to the live transcription service. Check your connection and press Start again.
portal-live-error-closed = The connection to the service closed ({ $reason }). Press Start to begin again.
portal-live-error-signed-out = Your portal sign-in has ended. Sign in again with a new link, then come back to this page.
portal-live-error-too-many = You already have as many live sessions open as are allowed at once. Close the Live page in another tab or window, then press Start again.
portal-live-error-server = The service reported: { $message }
portal-live-session = Live session
