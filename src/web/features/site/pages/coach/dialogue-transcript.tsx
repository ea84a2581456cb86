import { Bot, UserRound } from 'lucide-react';
import { cn } from '@/lib/utils';
import { moveLabels, speakerLabels, type ExampleDialogue } from './example-dialogues';

/**
 * A worked example as an accessible transcript: an ordered list of turns, each announced by
 * its speaker's name and the move it makes, so nothing depends on colour or position alone.
 */
export function DialogueTranscript({ dialogue }: { dialogue: ExampleDialogue }) {
  const headingId = `dialogue-${dialogue.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col rounded-2xl border bg-card shadow-xs"
    >
      <header className="border-b px-5 py-4 sm:px-6">
        <p className="text-sm font-medium text-primary">
          {dialogue.subject} · {dialogue.mode}
        </p>
        <h3 id={headingId} className="mt-1 text-lg font-semibold text-foreground">
          {dialogue.topic}
        </h3>
      </header>
      <ol className="flex flex-col gap-4 p-5 sm:p-6" aria-label={`Transcript: ${dialogue.topic}`}>
        {dialogue.turns.map((turn, index) => {
          const isCoach = turn.speaker === 'coach';
          const Icon = isCoach ? Bot : UserRound;
          return (
            <li
              key={index}
              className={cn('flex gap-3', !isCoach && 'flex-row-reverse text-right sm:pl-10')}
            >
              <span
                className={cn(
                  'inline-flex size-8 shrink-0 items-center justify-center rounded-full',
                  isCoach ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground',
                )}
                aria-hidden="true"
              >
                <Icon className="size-4" />
              </span>
              <div
                className={cn(
                  'min-w-0 rounded-xl px-4 py-3 text-left',
                  isCoach
                    ? 'border border-primary/20 bg-primary/[0.07] sm:mr-10'
                    : 'border bg-background',
                )}
              >
                <p className="flex flex-wrap items-baseline gap-x-2 text-xs">
                  <span className="font-semibold text-foreground">
                    {speakerLabels[turn.speaker]}
                    <span className="sr-only">:</span>
                  </span>
                  <span className="text-muted-foreground">{moveLabels[turn.move]}</span>
                </p>
                <p className="mt-1 text-sm leading-relaxed text-foreground">{turn.text}</p>
              </div>
            </li>
          );
        })}
      </ol>
    </article>
  );
}
