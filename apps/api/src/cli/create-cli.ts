import { Command, CommanderError } from 'commander';
import { isAppError } from '@transcribe/core';

/**
 * The exit codes of every command-line program of the service (`apikey`, `portal`, `models`,
 * `worker`, `bot`, `bench`, `bench:quality`), one per kind of outcome; docs/deployment.md
 * ("Command-line programs") lists them for operators and scripts.
 */
export const EXIT = {
  /** Done (also `--help`). */
  ok: 0,
  /** The work was tried and failed: a database, network, disk or self-test error; the message says which. */
  failed: 1,
  /** A usage mistake: unknown command or option, missing argument, malformed value; the usage follows. */
  usage: 2,
  /** Nothing by that name: an unknown key id, model name, file or folder. */
  notFound: 3,
  /**
   * No service database where the settings point (DATA_DIR / DATABASE_URL name one the service
   * never used); `apikey create --create-database` makes one.
   */
  noDatabase: 4,
} as const;

/** An error a CLI prints in one line and exits with `exitCode` (one of EXIT). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * The exit code of an error a CLI caught: a CliError's own; an AppError `invalid_input` (a value the
 * core refused) EXIT.usage, `not_found` EXIT.notFound; anything else EXIT.failed.
 */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (isAppError(error, 'invalid_input')) return EXIT.usage;
  if (isAppError(error, 'not_found')) return EXIT.notFound;
  return EXIT.failed;
}

/**
 * A command-line program as every CLI of the service behaves (commander): `--help` / `-h` on the
 * program and each subcommand print the usage and exit 0; an unknown command, an unknown option or
 * a missing argument prints one line naming it, then the usage, and exits 2 (EXIT.usage; so does no
 * command at all: the usage is shown); never a stack trace.
 * @param name how the program is run, e.g. `apikey` for `npm run apikey --`.
 * @example
 * const program = createCli('apikey', 'Manage API keys.');
 * program.command('list').action(async () => { … });
 * await runCli(program);
 */
export function createCli(name: string, description: string): Command {
  const program = new Command(`npm run ${name} --`).description(description).helpOption('-h, --help', 'show this help');
  program.configureOutput({ outputError: (text, write) => write(text) });
  program.showHelpAfterError(true);
  program.exitOverride();
  return program;
}

/**
 * Parses `argv` and runs the chosen action; maps commander's exits to the codes above.
 * @param argv defaults to this process's arguments.
 */
export async function runCli(program: Command, argv: readonly string[] = process.argv): Promise<void> {
  for (const command of program.commands) {
    command.exitOverride();
    command.showHelpAfterError(true);
    command.helpOption('-h, --help', 'show this help');
  }
  try {
    await program.parseAsync(argv as string[]);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // `--help` asked for: 0; a usage error, or no command given (commander then shows the help): 2.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  }
}
