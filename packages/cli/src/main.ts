import { Command } from 'commander';

// The vitrine client. Its commands (login, capture, jobs, ...) arrive with the features they
// drive; `serve` and `admin` are dispatched to the server package by bin/vitrine.
const program = new Command('vitrine')
  .description('Vitrine command-line client. Server commands: vitrine serve, vitrine admin --help')
  .showHelpAfterError();

program.parseAsync(process.argv);
