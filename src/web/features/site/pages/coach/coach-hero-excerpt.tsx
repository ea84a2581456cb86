import { exampleDialogues, speakerLabels } from './example-dialogues';
import { HeroFigure } from '../shared/hero-figure';

const excerptTurns = 3;

/** The opening turns of the anatomy example, shown beside the hero. */
export function CoachHeroExcerpt() {
  const dialogue = exampleDialogues.find((candidate) => candidate.id === 'lungs');
  if (!dialogue) return null;
  return (
    <HeroFigure caption={`From the ${dialogue.subject.toLowerCase()} example`}>
      <ol className="space-y-3">
        {dialogue.turns.slice(0, excerptTurns).map((turn, index) => (
          <li
            key={index}
            className={
              turn.speaker === 'coach'
                ? 'rounded-lg border border-primary/20 bg-primary/[0.07] px-3 py-2'
                : 'ml-8 rounded-lg border bg-background px-3 py-2'
            }
          >
            <p className="text-xs font-semibold text-foreground">{speakerLabels[turn.speaker]}</p>
            <p className="mt-0.5 text-sm leading-snug text-foreground">{turn.text}</p>
          </li>
        ))}
      </ol>
    </HeroFigure>
  );
}
