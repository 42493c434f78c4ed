# Русские тексты Telegram-бота (apps/bot). Каждый ключ должен быть и в en.ftl
# (это проверяет bot-i18n.test.ts). Переменные: { $name }; числа выбирают форму множественного числа.

## /start, /help, команды

help-intro = Пришлите мне голосовое сообщение, видеосообщение («кружок») или аудио- либо видеофайл, и я пришлю расшифровку.
help-limits-with-llm = Подойдут файлы до { $limit }. Под каждой расшифровкой есть кнопки: краткое содержание, задачи, перевод и другое.
help-limits-without-llm = Подойдут файлы до { $limit }. Краткое содержание и перевод недоступны: на этом сервере нет языковой модели.
command-help = Что я умею
command-settings = Язык, формат расшифровки, сводки, число говорящих
command-usage = Что вы уже расшифровали
command-api = Ваш ключ для HTTP API
command-portal = Одноразовая ссылка на веб-портал
command-cancel = Отменить ваши записи в очереди и в работе
command-language = Язык моих сообщений: русский или английский
portal-link = Ваша одноразовая ссылка для входа на портал (сработает один раз, действует { $minutes } мин):
    { $url }
send-a-recording = Пришлите голосовое сообщение, «кружок», аудио- или видеофайл, и я его расшифрую. /help — что ещё я умею.
button-gone = Эта кнопка больше не работает.
token-see-api = Ключ API — в разделе /api: отправьте /api и нажмите «🔑 Получить ключ».

## /language

language-question = На каком языке мне с вами говорить? В вашем Telegram выбран язык: { $telegram }.
language-saved = Теперь я говорю по-русски.
language-english = English
language-russian = Русский

## Ошибки (reply-for-error.ts)

error-invalid-input = Не получилось начать: { $detail } Изменить выбор можно в /settings.
error-unauthenticated = Не удалось проверить доступ. Отправьте /start и попробуйте снова.
error-not-found = Я больше не нахожу эту расшифровку. Пришлите запись ещё раз.
error-link-not-valid = Эта ссылка больше не работает. Пришлите запись ещё раз.
error-too-large = Файл слишком большой: я принимаю файлы до { $limit }. Пришлите запись покороче или посильнее сжатую либо загрузите её на веб-портале (/portal).
error-too-large-for-telegram = Файл для меня слишком большой: Telegram позволяет ботам скачивать файлы не больше { $limit }. Что можно сделать:
    • загрузить его на веб-портале (/portal пришлёт ссылку для входа);
    • или передать HTTP API ссылку на файл (/api покажет как);
    • или попросить того, кто запустил бота, подключить его к локальному серверу Bot API (TELEGRAM_API_ROOT): тогда предел — 2 ГБ.
error-unsupported-media = Такой файл я расшифровать не могу. Пришлите голосовое сообщение, «кружок», аудио- или видеофайл.
error-rate-limited = Слишком много запросов сразу. Подождите минуту и попробуйте снова.
error-media-unreadable = Не получилось прочитать файл: это не знакомое мне аудио или видео, или файл повреждён.
error-media-no-audio = В этом файле нет звука, расшифровывать нечего.
error-upstream-refused = { $who ->
    [telegram] Telegram
    [llm] Языковая модель
   *[other] Другая сторона
  } не отдал(а) то, что мне было нужно. Попробуйте через минуту.
error-upstream-unreachable = { $who ->
    [telegram] Telegram
    [llm] Языковая модель
   *[other] Другая сторона
  } не ответил(а) вовремя. Попробуйте через минуту.
error-address-not-allowed = Этот адрес ведёт во внутреннюю сеть, а туда мне обращаться нельзя.
error-recognition-failed = Распознать речь в этой записи не удалось. Попробуйте ещё раз; если не получится снова, сообщите администратору.
error-recognition-unreachable = Сервер распознавания речи не ответил. Попробуйте через несколько минут.
error-engine-unavailable = Распознавание речи сейчас недоступно на этом сервере. Попробуйте позже.
error-cache-changed = Другой запрос в тот же момент изменил эту расшифровку. Пришлите запись ещё раз.
error-service-busy = Я сейчас занят другими записями. Попробуйте через несколько минут.
error-post-processing-failed = Языковая модель сейчас не смогла это сделать. Попробуйте через несколько минут.
error-internal = У меня что-то пошло не так. Попробуйте ещё раз; если повторится, сообщите администратору.
error-no-speech = Я не услышал речи в этой записи, поэтому расшифровки нет. Если в ней всё же говорят, проверьте язык в /settings.
error-still-running = Эта запись обрабатывается дольше обычного. Попробуйте позже или пришлите запись покороче.
error-stopped = Меня перезапустили во время работы над этим. Пришлите, пожалуйста, ещё раз.
error-no-language-model = Для кратких содержаний, переводов и прочего нужна языковая модель, а на этом сервере её нет.

## Сообщение о ходе работы (describe-progress.ts)

progress-downloading = ⏳ Получаю файл из Telegram…
progress-received = ✅ Файл получен ({ $size })
progress-waiting = ⏳ Жду в очереди…
progress-waiting-next = ⏳ Жду в очереди (следующая)…
progress-waiting-ahead = ⏳ Жду в очереди (впереди: { $ahead })…
progress-waiting-eta = 🕒 Начну примерно через { $minutes } мин
progress-decoding = ⏳ Декодирую звук…
progress-decoded = ✅ Звук декодирован ({ NUMBER($seconds, minimumFractionDigits: 1, maximumFractionDigits: 1) } с)
progress-looking = ⏳ Ищу речь…
progress-no-speech = ✅ Искал речь: не нашёл
progress-speech = ✅ Речь найдена ({ NUMBER($seconds, minimumFractionDigits: 1, maximumFractionDigits: 1) } с)
progress-recognising = ⏳ Распознаю речь… { $percent }%
progress-recognising-started = ⏳ Распознаю речь…
progress-recognised = ✅ Речь распознана
progress-finished = ✅ Расшифровано: { $duration } звука.
size-mib = { NUMBER($value, minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: 0) } МиБ
size-kib = { NUMBER($value, useGrouping: 0) } КиБ

## Расшифровки и файлы

long-text-caption = Весь текст ({ $chars } знаков) — в этом файле.
doubtful-note = Курсивом выделены сомнительные места: распознаватель в них не уверен, не услышал там речи или зациклился, так что слова могут быть расслышаны неверно или выдуманы.
caption-txt = Расшифровка (.txt)
caption-srt = Субтитры (.srt)
caption-docx = Расшифровка (.docx)
caption-pdf = Расшифровка (.pdf)
making-file = Готовлю файл…
file-heading-details = Прислано { $date } · { $duration }
recording-unnamed = Расшифровка

## Кнопки под расшифровкой

button-more = Ещё…
button-speakers = 👥 Говорящие…
button-back = ◀ Назад
button-rerun = Заново: { $count ->
    [one] { $count } говорящий
    [few] { $count } говорящих
   *[other] { $count } говорящих
  }
speakers-hint = Только для этой записи; в /settings останутся ваши настройки.
rerun-started = Расшифровываю заново: { $count ->
    [one] { $count } говорящий
    [few] { $count } говорящих
   *[other] { $count } говорящих
  }…
recording-gone = Я больше не нахожу запись, из которой сделана эта расшифровка. Пришлите её ещё раз.
pick-language = Выберите язык или напишите его название.
unknown-language = Не знаю такого языка. Напишите название или код (например, немецкий, Deutsch или de) либо нажмите кнопку.
working-on-it = Работаю…

## Имена говорящих («Назвать говорящих» под расшифровкой с двумя и более голосами)

button-name-speakers = 🏷 Назвать говорящих
button-skip-speaker = Пропустить
naming-preparing = Вырезаю короткий отрывок каждого говорящего…
naming-one-speaker = В этой записи говорит один голос: различать некого.
naming-ask = Говорящий { $index } из { $total } ({ $label }). Кто это? Ответьте именем или нажмите «Пропустить».
naming-ask-group = Говорящий { $index } из { $total } ({ $label }). Кто это? Ответьте на это сообщение именем или нажмите «Пропустить».
naming-name-invalid = Это имя не подходит: { $detail } Ответьте другим именем или нажмите «Пропустить».
naming-name-twice = Имя «{ $name }» вы уже дали другому говорящему этой записи. Ответьте другим именем или нажмите «Пропустить».
naming-saved = ✅ { $label } — это { $name }. Я узнаю этот голос в ваших следующих записях.
naming-added = ✅ { $label } — это { $name }: добавил к голосу «{ $name }», который вы назвали раньше.
naming-too-little = { $label } говорит в этой записи слишком мало, чтобы запомнить голос ({ $seconds } с; нужно хотя бы { $min } с). Пропускаю.
naming-full = У вас уже { $max ->
    [one] { $max } названный голос
    [few] { $max } названных голоса
   *[other] { $max } названных голосов
  } — больше нельзя, поэтому «{ $name }» не сохранён. Сначала удалите голос через API (DELETE /v1/voices/…).
naming-skipped = { $label } пропущен.
naming-done = Готово: { $count ->
    [0] ни один голос не назван.
    [one] назван { $count } голос.
    [few] названо { $count } голоса.
   *[other] названо { $count } голосов.
  }
naming-done-off = Узнавание названных голосов выключено в /settings, поэтому в следующих записях останутся метки SPEAKER_1, SPEAKER_2, … Включите его там, чтобы были имена.
naming-renamed = Ниже — расшифровка с именами.
naming-gone = Это называние закончилось. Нажмите «Назвать говорящих» под расшифровкой, чтобы начать заново.
result-working = ⏳ { $title }: работаю…
result-done = ✅ { $title }
result-failed = { $title }: { $reply }
result-title-language = { $title } ({ $language })
no-speaker-names = Имён говорящих не нашлось.
result-empty = Результат пустой.

## Виды обработки (spec 2.4)

type-summary = Краткое содержание
type-gist = Суть
type-detailed = Подробный пересказ
type-meeting_minutes = Протокол встречи
type-lecture_notes = Конспект лекции
type-simple = Простыми словами
type-key_facts = Ключевые факты
type-action_items = Задачи
type-chapters = Главы
type-blog_post = Пост для блога
type-article = Статья
type-quiz = Тест
type-customer_insights = Выводы о клиентах
type-clean_up = Вычищенный текст
type-translation = Перевод
type-translated_subtitles = Переведённые субтитры
type-speaker_names = Имена говорящих

## Меню API и ключи

api-menu = Доступ к API

    Пользуйтесь API расшифровки из своих программ с личным ключом. Всё сделанное с ним засчитывается вам.

    Нажмите «Получить ключ», чтобы получить ключ. Повторное нажатие выдаёт новый ключ, а прежний перестаёт работать { $delay }.
button-get-token = 🔑 Получить ключ
button-usage = 📊 Расход
key-first = 🔑 Ваш ключ API. С ним ваши собственные программы (скрипты, приложения, автоматизации) могут отправлять записи в API расшифровки; всё, что они расшифруют, засчитывается вам, как и записи, присланные сюда.
    Храните его как пароль: в менеджере паролей, переменной окружения или хранилище секретов, но не в исходном коде и не в общих чатах. Если он утёк, снова нажмите «Получить ключ»: вы получите новый, а этот перестанет работать { $delay }.
key-reissued = 🔑 Ваш новый ключ API. Прежний ключ перестанет работать { $delay }: поставьте новый везде, где был старый.
key-shown-once = Ключ показывается только один раз: сохраните его сейчас.
key-base-urls = Базовый URL для каждого вида клиентов:
key-client-python = Клиент для Python (pip install replicate):
key-client-npm = Клиент для JavaScript (npm install replicate):
key-client-openai = SDK и программы OpenAI, для OpenAI-совместимого адреса /v1/audio/transcriptions:
key-model = Модель:
key-model-openai = в SDK OpenAI:
key-try-it = Попробуйте:
key-then = Затем читайте адрес <code>urls.get</code> из ответа с тем же заголовком, пока <code>status</code> не станет <code>succeeded</code>. Каждый клиент принимает свой базовый URL (см. выше) и ключ как токен; на веб-портале (/portal) есть пример для каждого.
delay-now = сразу
delay-minutes = через { $minutes ->
    [one] { $minutes } минуту
    [few] { $minutes } минуты
   *[other] { $minutes } минут
  }
delay-seconds = через { $seconds } с
button-delete-key-now = 🗑 Удалить это сообщение
button-delete-key-later = ⏲ Удалить через 10 минут
key-delete-later = Я удалю это сообщение через 10 минут. Скопируйте ключ до этого.
key-delete-failed = Не получилось удалить: удалите сообщение сами, пожалуйста.

## /usage

usage-none = Вы ещё ничего не расшифровали. Пришлите голосовое сообщение, чтобы начать.
usage-title = Ваш расход:
usage-place = • { $place ->
    [bot] В этом чате
    [api] Через API
    [portal] На портале
   *[other] { $place }
  }: { $count ->
    [one] { $count } запись
    [few] { $count } записи
   *[other] { $count } записей
  } (готово: { $done }), { NUMBER($minutes, minimumFractionDigits: 1, maximumFractionDigits: 1) } мин звука
usage-charged = Списано за последние { $days } дн.: { NUMBER($minutes, minimumFractionDigits: 1, maximumFractionDigits: 1) } мин звука{ $amount }.
usage-amount = , сумма { NUMBER($amount, maximumFractionDigits: 2) }
usage-not-charged = Не списано за это время: { $parts }.
usage-canceled = отменённые записи: { $count }{ $minutes ->
    [0] {""}
   *[other] {" "}({ NUMBER($minutes, minimumFractionDigits: 1, maximumFractionDigits: 1) } мин)
  }
usage-failed = записи, которые не удалось расшифровать: { $count }{ $minutes ->
    [0] {""}
   *[other] {" "}({ NUMBER($minutes, minimumFractionDigits: 1, maximumFractionDigits: 1) } мин)
  }
usage-from-cache = повторы уже оплаченных записей, взятые из кэша: { $count }{ $minutes ->
    [0] {""}
   *[other] {" "}({ NUMBER($minutes, minimumFractionDigits: 1, maximumFractionDigits: 1) } мин)
  }

## /settings

settings-now = Ваши настройки сейчас:
    { $settings }

    Это настройки по умолчанию для каждой записи. Пройдёмся по ним. Отправьте /cancel, чтобы выйти без сохранения.
settings-saved = Сохранено. Теперь:
    { $settings }
settings-unchanged = Настройки не изменились.
settings-line-language = • Язык: { $value }
settings-line-format = • Расшифровка: { $value }
settings-line-types = • После каждой расшифровки: { $value }
settings-line-speakers = • Говорящих: { $value }
settings-line-voices = • Названные голоса: { $value }
settings-automatic = автоматически
settings-none = ничего
settings-question-language = На каком языке говорят в ваших записях? Можно и написать название или код (например, немецкий, Deutsch, de).
settings-question-language-only = На каком языке говорят в ваших записях? { $count ->
    [one] Этот сервер распознаёт только { $languages }.
   *[other] Этот сервер распознаёт такие языки: { $languages }.
  }
settings-language-not-here = Этот сервер распознаёт только { $languages }, а не { $language }. Выберите одну из кнопок выше (или /cancel).
settings-question-format = Как присылать расшифровки?
settings-question-types = Что делать после каждой расшифровки? Отметьте (не больше { $max }), затем «Готово».
settings-question-speakers = Сколько человек обычно говорит? «Автоматически» определяет это для каждой записи; для одной записи лучше кнопка «Говорящие…» под её расшифровкой. Можно и написать число.
settings-question-voices = Узнавать голоса, которые вы назвали? Кнопкой «🏷 Назвать говорящих» под расшифровкой вы говорите мне, кто говорит; если включено, я подписываю эти голоса именами в ваших следующих записях (и в группах, когда просите вы).
settings-pick-a-button = Выберите одну из кнопок выше (или /cancel).
settings-tap-then-done = Нажимайте кнопки выше, затем «Готово».
settings-chosen = выбрано: { $count }
settings-closed = Этот вопрос уже закрыт.
choice-automatic = Автоматически
choice-done = Готово
choice-on = Вкл.
choice-off = Выкл.
settings-on = вкл.
settings-off = выкл.
format-messages = Сообщениями в чате
format-txt = Файл .txt с временем
format-srt = Субтитры .srt

## Отмена (handle-cancel.ts, кнопка ✖ Отменить)

button-cancel = ✖ Отменить
canceled-reply = ✖ Отменено: эту запись я расшифровывать не буду.
canceled-short = Отменено.
nothing-to-cancel = Отменять нечего: ни одна ваша запись не ждёт в очереди и не расшифровывается.
cannot-cancel = Отменить запись может только тот, кто её прислал, и только пока она не готова.
canceled-list = Отменено: { $count ->
    [one] { $count } запись
    [few] { $count } записи
   *[other] { $count } записей
  }:
recording-voice = Голосовое сообщение
recording-video-note = Видеосообщение
recording-label = { $title }, { $duration }, прислано { $ago }
recording-label-no-duration = { $title }, прислано { $ago }
canceled-fetching = • { $name } (я получал её из Telegram)
canceled-running = • { $name } (расшифровывалась)
canceled-waiting = • { $name } (ждала в очереди)

## Группы (handle-group-chats.ts)

group-private-only = Ключи API, ссылки на портал, настройки и расход — личное: с ними я работаю только в личном чате. Откройте @{ $bot } и отправьте команду там.
group-help = Привет! Чтобы я расшифровал голосовое сообщение здесь, ответьте на него, упомянув меня (@{ $bot }), или упомяните меня в подписи к записи.
    Администратор группы может включить расшифровку всех записей командой /autotranscribe on (и выключить: /autotranscribe off).
    Каждая расшифровка засчитывается тому, кто её попросил. Ключи API и настройки — только в личном чате.
group-transcribe-all-now = Я расшифровываю все записи в этой группе.
group-transcribe-mentioned-now = Я расшифровываю записи, только когда меня упоминают или мне отвечают.
group-admin-can-change = Администратор группы может это изменить: /autotranscribe on или /autotranscribe off.
group-admins-only = Это может изменить только администратор группы.
group-transcribe-all-done = Готово: буду расшифровывать все записи в этой группе.
group-transcribe-mentioned-done = Готово: буду расшифровывать записи, только когда меня упоминают или мне отвечают.
group-setting-in-private = Это настройка группы: отправьте команду в группе, где я состою.
group-hint = Ответьте на голосовое сообщение или запись, упомянув меня, и я её расшифрую.

## Веб-портал (apps/api/src/portal): те же каталоги, чтобы портал говорил на языке бота

portal-name = Портал расшифровки
portal-skip = К содержимому
portal-nav-home = Главная
portal-nav-api = Ключ API
portal-nav-transcribe = Расшифровать
portal-nav-usage = Расход
portal-nav-reference = Справка по API
portal-nav-languages = Языки
portal-nav-live = Вживую
portal-footer = Сервис расшифровки на собственном сервере
portal-footer-openapi = Документ OpenAPI
portal-signed-in-as = Вы вошли как
portal-sign-out = Выйти
portal-telegram-user = Пользователь Telegram { $id }
portal-signed-out-notice = Вы вышли.
portal-intro = Здесь можно получить ключ API, расшифровать запись прямо в браузере и посмотреть свой расход.
portal-sign-in-heading = Вход
portal-no-passwords = Паролей нет. Вход — по одноразовой ссылке, она действует 15 минут:
portal-with-bot = Через Telegram-бота:
portal-with-bot-how = отправьте ему /portal и откройте ссылку из ответа.
portal-on-server = На своём сервере:
portal-on-server-how = выполните { $command } и откройте напечатанную ссылку.
portal-reference-public = { $link } можно читать и без входа.
portal-login-explain = Эта одноразовая ссылка открывает портал расшифровки в этом браузере.
portal-sign-in-button = Войти
portal-welcome = Здравствуйте, { $name }!
portal-card-key = Получить ключ API
portal-card-key-have = Ваш ключ API
portal-card-key-text = С ключом ваши программы могут пользоваться API расшифровки (есть примеры для Python, JavaScript, SDK OpenAI и curl).
portal-card-transcribe = Расшифровать запись
portal-card-transcribe-text = Загрузите аудио- или видеофайл или вставьте ссылку и прочитайте расшифровку с говорящими и временем.
portal-card-usage = Посмотреть расход
portal-card-usage-text = Все расшифровки с состоянием, длительностью и списанием, и минуты звука по дням.

portal-error-title-400 = Не удалось прочитать запрос
portal-error-title-401 = Пожалуйста, войдите
portal-error-title-403 = Форму не удалось принять
portal-error-title-404 = Не найдено
portal-error-title-409 = Попробуйте ещё раз
portal-error-title-413 = Файл слишком большой
portal-error-title-415 = Такой запрос не принимается
portal-error-title-422 = Проверьте введённое
portal-error-title-429 = Слишком много запросов
portal-error-title-503 = Сервис занят
portal-error-title-other = Что-то пошло не так
portal-error-home = На главную страницу портала
portal-error-how-to-sign-in = Как войти
portal-error-details = Подробности от сервиса (на английском):
portal-no-such-page = На портале нет такой страницы.
portal-sign-in-first = Сначала войдите: отправьте /portal Telegram-боту или выполните на сервере "npm run portal -- login-link" и откройте ссылку.
portal-csrf-refused = Эта форма устарела или отправлена с другого сайта, поэтому ничего не сделано. Обновите страницу и попробуйте снова.
portal-login-needs-token = Для этого адреса нужен токен из ссылки для входа. Откройте присланную ссылку целиком.
portal-login-other-browser = Эта форма входа открыта не в этом браузере или слишком долго. Откройте ссылку для входа ещё раз.

portal-key-title = Ключ API
portal-key-new-title = Ваш новый ключ API
portal-key-intro = С ключом API ваши программы могут пользоваться API расшифровки. Храните его в секрете, не в исходном коде.
portal-key-yours = Ваши ключи
portal-key-none = У вас пока нет ключа API.
portal-key-get = Получить ключ
portal-key-get-new = Получить новый ключ
portal-key-col-prefix = Начало ключа
portal-key-col-created = Создан
portal-key-col-label = Метка
portal-key-col-status = Состояние
portal-key-works = Работает
portal-key-stops-at = Перестанет работать { $time }
portal-key-when-old-stops = Когда текущему ключу перестать работать?
portal-key-right-away = Сразу
portal-key-in-5-minutes = Через 5 минут (время перевести программы на новый)
portal-key-replaces = Новый ключ заменит текущий.
portal-key-button = Получить ключ
portal-key-choose-grace = Выберите, когда текущему ключу перестать работать: сразу или через 5 минут.
portal-key-shown-once = Вот ваш новый ключ API. Он показывается только один раз:
portal-key-copy-now = скопируйте его сейчас и сохраните в надёжном месте.
portal-key-label = Ваш новый ключ API
portal-key-copy = Скопировать ключ
portal-key-old-gone = Прежний ключ больше не работает.
portal-key-old-stops = Прежний ключ перестанет работать { $time }.
portal-key-use = Как пользоваться
portal-key-bases = Базовый URL зависит от клиента; модель — { $model } (в SDK OpenAI — { $openaiModel }).
portal-key-base-python = Клиент replicate для Python, base_url:
portal-key-base-npm = Клиент replicate для npm, baseUrl:
portal-key-base-openai = SDK и программы OpenAI (OpenAI-совместимый адрес /v1/audio/transcriptions), baseURL:
portal-key-full-reference = Полная справка по API
portal-key-back = К вашим ключам
portal-example-curl-note = Положите ключ в переменную окружения, загрузите файл, затем читайте предсказание, пока его состояние не станет succeeded.
portal-example-python = Python (клиент replicate)
portal-example-python-note = Установка: pip install "replicate<0.32"; задайте TRANSCRIBE_API_KEY, как в первой строке примера для curl.
portal-example-js = JavaScript (клиент replicate)
portal-example-js-note = Установка: npm install replicate (Node 18 или новее; сохраните как файл .mjs); задайте TRANSCRIBE_API_KEY, как в первой строке примера для curl.
portal-example-openai = Python (SDK OpenAI, OpenAI-совместимый адрес)
portal-example-openai-note = Установка: pip install openai; программы, которые умеют работать с API распознавания речи OpenAI, работают так же с этим базовым URL.
portal-copy-code = Скопировать код
portal-copy-curl = Скопировать команды curl
portal-copied = Скопировано
portal-copied-announce = Скопировано в буфер обмена
portal-copy-failed = Скопировать не получилось: выделите текст и скопируйте его сами

portal-transcribe-title = Расшифровать запись
portal-form-errors = Проверьте отмеченное поле:
portal-recording = Запись
portal-file-label = Аудио- или видеофайл
portal-file-limit = (до { $mib } МиБ)
portal-or = или
portal-link-label = Ссылка на запись
portal-format-label = Формат результата
portal-format-json = JSON: фрагменты и время (по умолчанию)
portal-format-json2 = JSON с языками и говорящими
portal-format-text = Текст с говорящими и временем
portal-format-srt = Субтитры SRT
portal-format-lrc = LRC (субтитры в стиле текстов песен)
portal-format-hint = Потом можно скачать любой формат; этот API вернёт как результат.
portal-language-label = Язык
portal-language-auto = Определить автоматически
portal-language-only = Этот сервер распознаёт только { $languages }.
portal-languages-link = Список языков
portal-speakers-label = Число говорящих
portal-optional = (необязательно)
portal-no-llm = Для кратких содержаний, переводов и прочей обработки нужна языковая модель, а на этом сервере её нет.
portal-post-processing = После расшифровки
portal-post-processing-hint = (необязательно, не больше 8)
portal-type-custom = Своё задание
portal-needs-target = нужен язык перевода
portal-needs-prompt = нужно ваше задание
portal-target-label = Язык перевода
portal-target-hint = (для «Перевод» и «Переведённые субтитры»)
portal-prompt-label = Ваше задание
portal-prompt-hint = (для «Своё задание»)
portal-uploading = Загрузка
portal-transcribe-button = Расшифровать
portal-uploaded = Загружено. Открываю расшифровку…
portal-sending-link = Отправляю ссылку…
portal-file-too-large-here = Файл больше { $mib } МиБ — это наибольший размер, который принимает сервис.
portal-upload-failed = Загрузка не удалась. Проверьте соединение и попробуйте снова.
portal-answered-status = Сервис ответил кодом { $status }. Попробуйте снова.
portal-lost-contact = Связь с сервисом потеряна. Обновите страницу, чтобы увидеть состояние.
portal-choose-file-or-link = Выберите файл с записью или вставьте ссылку на неё.
portal-not-both = Выберите файл или вставьте ссылку, но не то и другое.
portal-field-audio = Выберите файл с записью или вставьте ссылку на неё (ссылка начинается с http:// или https://).
portal-field-language = Этот сервер не распознаёт такой язык.
portal-field-speakers = Число говорящих — целое число от 1 до 32.
portal-field-output_format = Выберите один из форматов результата.
portal-field-post_process = Выберите не больше 8 шагов после расшифровки.
portal-field-target_language = Выберите язык перевода для «Перевод» и «Переведённые субтитры» (и только для них).
portal-field-custom_prompt = Напишите задание для «Своё задание» (и только с ним), не длиннее 8192 знаков.
portal-see-languages = Смотрите { $link }.
portal-languages-link-text = список языков

portal-status-waiting = Жду в очереди…
portal-status-getting = Получаю запись…
portal-status-looking = Ищу речь…
portal-status-recognising = Распознаю речь…
portal-status-recognising-percent = Распознаю речь… { $percent }%
portal-status-finishing = Завершаю…
portal-status-cache = Расшифровка взята из кэша…
portal-status-post-processing = Обрабатываю расшифровку…
portal-status-done = Готово
portal-status-canceled = Отменено
portal-status-failed = Не получилось: { $error }
portal-status-failed-unknown = расшифровка не завершилась.
portal-queue-next = следующая
portal-queue-ahead = впереди: { $count }
portal-queue-wait-soon = меньше минуты
portal-queue-wait-minutes = около { $minutes } мин
portal-queue-wait-hours = около { $hours } ч
portal-prediction-transcript = Расшифровка
portal-prediction-failed = Не получилось
portal-prediction-canceled = Отменено
portal-prediction-transcribing = Расшифровываю
portal-started = начато { $time }
portal-of-audio = { $duration } звука
portal-cancel = Отменить
portal-failed = Не получилось:
portal-try-another = Попробовать другую запись
portal-canceled-text = Отменено: эта запись не расшифрована.
portal-downloads = Скачать
portal-download-text = Текст
portal-download-srt = Субтитры SRT
portal-download-lrc = LRC
portal-download-json = JSON
portal-download-json2 = JSON2
portal-download-docx = Документ Word
portal-download-pdf = PDF
portal-download-results = Результаты обработки
portal-post-processing-results = После расшифровки
portal-speakers = Говорящие:
portal-doubtful = сомнительно
portal-doubtful-note = Затенённые места сомнительны: распознаватель в них не уверен, не услышал там речи или зациклился.
portal-no-speech = В этой записи речи не нашлось.
portal-uploaded-file = загруженный файл
portal-inline-data = данные в запросе
portal-no-download-format = Формата { $format } для скачивания нет; есть text, srt, lrc, json, json2, docx, pdf и results.
portal-no-transcript-yet = У этой расшифровки ещё нет текста.

portal-usage-title = Расход
portal-usage-window = Последние { $days } дн.: в этот срок повторная расшифровка той же ссылки бесплатна.
portal-usage-transcriptions = Расшифровки
portal-usage-charged = Списано минут
portal-usage-free = Минуты бесплатных повторов
portal-usage-per-day = Минуты звука по дням
portal-usage-nothing = Пока ничего.
portal-usage-transcribe-link = Расшифруйте запись
portal-usage-or-key = или воспользуйтесь ключом API.
portal-col-created = Создано
portal-col-recording = Запись
portal-col-made-in = Где
portal-col-status = Состояние
portal-col-audio = Звук
portal-col-charge = Списание
portal-place-portal = Портал
portal-place-api = API
portal-place-bot = Telegram-бот
portal-state-processing = в работе
portal-state-starting = запускается
portal-state-succeeded = готово
portal-state-failed = не получилось
portal-state-canceled = отменено
portal-charge-free = бесплатный повтор
portal-charge-none = не списано
portal-charged = списано { $duration }
portal-chart-day = { $day }: списано { $charged } мин, бесплатных повторов { $free } мин
portal-chart-key-charged = списанные минуты
portal-chart-key-free = бесплатные повторы
portal-chart-utc = дни по UTC
portal-chart-table = Показать числа таблицей
portal-chart-no-audio = За этот срок звука не было.
portal-chart-col-day = День (UTC)
portal-chart-col-charged = Списано минут
portal-chart-col-free = Минуты бесплатных повторов
portal-chart-desc = С { $first } по { $last }: списано { $charged } мин, бесплатных повторов { $free } мин.

portal-reference-title = Справка по API
portal-reference-bases = Базовый URL: { $python } для клиента replicate на Python; { $npm } для curl и клиента replicate из npm; { $openai } для SDK OpenAI (OpenAI-совместимый адрес).
portal-reference-auth = Каждый запрос отправляет { $header }.
portal-reference-get-key = Получить ключ
portal-reference-document = Документ для программ:
portal-reference-english = Описания ниже — из документа API, на английском.
portal-reference-contents = Содержание справки
portal-reference-schemas = Схемы
portal-reference-parameters = Параметры
portal-reference-body = Тело запроса
portal-reference-responses = Ответы
portal-reference-required = обязательно
portal-reference-member = Поле
portal-reference-type = Тип
portal-reference-notes = Пояснения

portal-languages-title = Языки
portal-languages-intro = Любой из этих языков может быть языком перевода. Язык записи должен быть из тех, что распознаёт этот сервер.
portal-languages-col-language = Язык
portal-languages-col-code = Код
portal-languages-col-recognised = Распознаётся здесь
portal-yes = да
portal-no = нет

# Портал: имена говорящих в расшифровке и голоса учётной записи (docs/portal.md, «Speakers and voices»).
portal-nav-voices = Голоса
portal-rename-title = Говорящие
portal-rename-intro = Дайте говорящему имя: эта страница и её файлы покажут его. Отметьте «Запомнить этот голос», чтобы сохранить отпечаток голоса в разделе «Голоса»: тогда расшифровки, которые ищут известные голоса, назовут этого человека.
portal-rename-new-name = Новое имя для { $label }
portal-rename-button = Переименовать
portal-rename-remember = Запомнить этот голос
portal-rename-not-kept = Запись этой расшифровки не хранится (загруженные файлы удаляются после расшифровки), поэтому запомнить голоса из неё нельзя.
portal-rename-gone = Запись этой расшифровки больше не хранится, поэтому запомнить голоса из неё нельзя.
portal-renamed = Говорящий переименован.
portal-remembered = Говорящий переименован, голос запомнен как { $name }. Он есть в разделе «Голоса».
portal-voices-title = Голоса
portal-voices-intro = Голоса, которые вы назвали в расшифровке или добавили через API. Расшифровки, которые ищут известные голоса, называют этих людей по имени. Хранится только отпечаток голоса (числа, измеренные по речи), а не звук; удалённый голос исчезает сразу.
portal-voices-none = Голосов пока нет. В расшифровке с несколькими говорящими переименуйте одного и отметьте «Запомнить этот голос».
portal-voices-col-name = Имя
portal-voices-col-created = Добавлен
portal-voices-col-speech = Речь
portal-voices-col-excerpt = Отрывок
portal-voices-col-action = Действие
portal-voices-seconds = { $seconds } с
portal-voices-delete = Удалить
portal-voices-delete-named = Удалить голос { $name }
portal-voices-deleted = Голос удалён; от него ничего не осталось.
portal-voices-excerpt-none = Отрывок не хранится (хранится только отпечаток голоса).
portal-voices-excerpt-gone = Запись, из которой взят голос, больше не хранится.
portal-voices-excerpt-label = Отрывок: { $name }
portal-voices-from-transcript = из этой расшифровки
portal-voices-account = Ваши голоса
portal-voices-manage = Послушать отрывки в разделе «Голоса»
portal-voice-error-not-kept = Запись этой расшифровки не хранится (загруженные файлы удаляются после расшифровки), поэтому взять из неё голос нельзя. Говорящий не переименован.
portal-voice-error-gone = Запись этой расшифровки больше не хранится, поэтому взять из неё голос нельзя. Говорящий не переименован.
portal-voice-error-no-speech = В части записи этого говорящего не найдено речи, поэтому голос запомнить нельзя. Говорящий не переименован.
portal-voice-error-too-short = Этот говорящий сказал слишком мало, чтобы измерить голос (нужно хотя бы 2 секунды речи). Говорящий не переименован.
portal-voice-error-too-long = Часть этого говорящего слишком длинна для одного образца. Говорящий не переименован.
portal-voice-error-two-voices = В части этого говорящего звучат голоса: { $count } (возможно, говорящие разделены неверно), поэтому запомнить их как один голос нельзя. Говорящий не переименован.
portal-voice-error-limit = У вас уже { $most } { $most ->
        [one] голос
        [few] голоса
       *[many] голосов
    } — это предел. Сначала удалите один в разделе «Голоса». Говорящий не переименован.
portal-voice-error-taken = У вас уже есть голос с именем { $name }. Выберите другое имя или сначала удалите тот голос в разделе «Голоса». Говорящий не переименован.
portal-voice-error-name = Имя должно содержать от 1 до 64 символов, без управляющих символов, и не походить на метку безымянного говорящего (SPEAKER_2, A).
portal-voice-error-name-used = Другой говорящий этой расшифровки уже носит это имя; выберите другое.
portal-voice-error-no-speaker = В этой расшифровке нет такого говорящего.
portal-voice-error-no-voice = У вас нет такого голоса.
portal-live-title = Расшифровка вживую
portal-live-intro = Говорите в микрофон: текст каждой фразы появляется, когда вы делаете паузу, со временем от начала. Звук оплачивается как загруженная запись, каждый сеанс виден в разделе «Расход».
portal-live-needs-script = Для этой страницы нужен JavaScript: включите его для этого сайта или расшифруйте запись.
portal-live-start = Начать
portal-live-stop = Остановить
portal-live-turns = Фразы
portal-live-no-turns = Пока ничего не распознано.
portal-live-status-idle = Нажмите «Начать» и разрешите доступ к микрофону.
portal-live-status-mic = Запрашиваем микрофон…
portal-live-status-connecting = Подключаемся…
portal-live-status-listening = Слушаем.
portal-live-status-speech = Слышим речь…
portal-live-status-finishing = Дораспознаём последнюю фразу…
portal-live-status-stopped = Остановлено.
portal-live-recognising = распознаём…
portal-live-no-words = (слов не распознано)
portal-live-turn-failed = не распознано: { $reason }
portal-live-error-insecure = Микрофон доступен только на защищённой странице (https или localhost). Откройте портал по его адресу https.
portal-live-error-unsupported = Этот браузер не может обрабатывать звук микрофона (нет AudioWorklet). Попробуйте свежий Chrome, Edge, Firefox или Safari.
portal-live-error-denied = Браузеру не разрешили пользоваться микрофоном. Разрешите (значок в адресной строке или настройки сайта) и снова нажмите «Начать».
portal-live-error-no-mic = Микрофон не найден. Подключите его и снова нажмите «Начать».
portal-live-error-mic = Не удалось открыть микрофон ({ $reason }).
portal-live-error-connect = Не удалось подключиться к службе расшифровки. Проверьте соединение и снова нажмите «Начать».
portal-live-error-closed = Соединение со службой закрылось ({ $reason }). Нажмите «Начать», чтобы начать заново.
portal-live-error-signed-out = Ваш вход в портал закончился. Войдите снова по новой ссылке и вернитесь на эту страницу.
portal-live-error-too-many = У вас уже открыто столько сеансов расшифровки вживую, сколько разрешено одновременно. Закройте страницу «Вживую» в другой вкладке или окне и снова нажмите «Начать».
portal-live-error-server = Служба сообщила: { $message }
portal-live-session = Сеанс вживую
