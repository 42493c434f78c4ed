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
progress-decoding = ⏳ Декодирую звук…
progress-decoded = ✅ Звук декодирован ({ $seconds } с)
progress-looking = ⏳ Ищу речь…
progress-no-speech = ✅ Искал речь: не нашёл
progress-speech = ✅ Речь найдена ({ $seconds } с)
progress-recognising = ⏳ Распознаю речь… { $percent }%
progress-recognised = ✅ Речь распознана
progress-done = ✅ Готово: расшифровка ниже.

## Расшифровки и файлы

long-text-caption = Весь текст ({ $chars } знаков) — в этом файле.
caption-txt = Расшифровка (.txt)
caption-srt = Субтитры (.srt)
caption-docx = Расшифровка (.docx)
caption-pdf = Расшифровка (.pdf)
making-file = Готовлю файл…

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
key-try-it = Попробуйте:
key-then = Затем читайте адрес <code>urls.get</code> из ответа с тем же заголовком, пока <code>status</code> не станет <code>succeeded</code>. Клиенты предсказаний принимают базовый URL и ключ как токен.
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
  } (готово: { $done }), { $minutes } мин звука
usage-charged = Списано за последние { $days } дн.: { $minutes } мин звука{ $amount }{ $free }.
usage-amount = , сумма { $amount }
usage-free = ; бесплатных повторов: { $count }

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
settings-automatic = автоматически
settings-none = ничего
settings-question-language = На каком языке говорят в ваших записях? Можно и написать название или код (например, немецкий, Deutsch, de).
settings-question-format = Как присылать расшифровки?
settings-question-types = Что делать после каждой расшифровки? Отметьте (не больше { $max }), затем «Готово».
settings-question-speakers = Сколько человек обычно говорит? «Автоматически» определяет это для каждой записи; для одной записи лучше кнопка «Говорящие…» под её расшифровкой. Можно и написать число.
settings-pick-a-button = Выберите одну из кнопок выше (или /cancel).
settings-tap-then-done = Нажимайте кнопки выше, затем «Готово».
settings-chosen = выбрано: { $count }
settings-closed = Этот вопрос уже закрыт.
choice-automatic = Автоматически
choice-done = Готово
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
