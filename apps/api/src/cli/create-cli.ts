import { Command, CommanderError } from 'commander';

/**
 * A command-line program as every CLI of the service behaves (commander): `--help` / `-h` on the
 * program and each subcommand print the usage and exit 0; an unknown command, an unknown option or
 * a missing argument prints one line naming it, then the usage, and exits 2 (so does no command at
 * all: the usage is shown); never a stack trace.
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
