/**
 * Meaning-preserving rewrites for the offline evaluator, so a learner's own words meet the
 * bank's. The hand-written groups are small and close to the demo courses on purpose: whole
 * thesaurus synsets join words that differ in a science answer ("cell" and "prison", "block"
 * and "city block"; decision 0200). WordNet adds, below, only words whose most frequent sense is
 * a course word's (decision 0232), from a 31 KB table built at development time.
 */
import { NEGATING_PREFIXES, wordRoot } from './text';
import wordnet from './wordnet-synonyms.json';

/** Phrases folded to one word before lemmatisation (lower case, ASCII, after foldText). */
export const PHRASES: Array<[RegExp, string]> = [
  // Which way along a gradient: passive movement goes down it, active transport against it.
  [
    /\b(?:down|along|with)\s(?:(?:its|the|their|a|this)\s)?((?:[\w()]+\s){0,3}?)gradients?\b/g,
    '$1downgradient',
  ],
  [
    /\b(?:against|up)\s(?:(?:its|the|their|a|this)\s)?((?:[\w()]+\s){0,3}?)gradients?\b/g,
    '$1upgradient',
  ],
  // "from low to high (concentration)" is against the gradient, "from high to low" down it.
  [/\b(?:from )?(?:a )?low(?:er)? (?:concentration )?to (?:a )?high(?:er)?\b/g, 'upgradient'],
  [/\b(?:from )?(?:a )?high(?:er)? (?:concentration )?to (?:a )?low(?:er)?\b/g, 'downgradient'],
  // Note-taking shorthand: "w/o" is "without", an arrow is "so".
  [/\bw\/o\b/g, 'without'],
  [/\s(?:->|=>|-->)\s/g, ' so '],
  // "breaks down" is the opposite of "makes", not a break.
  [/\b(?:break|breaks|breaking|broke|broken) (?:it |them )?down\b|\bbreakdown\b/g, 'breakdown'],
  [/\bcarbon dioxide\b/g, 'co2'],
  [/\bblood vessels?\b/g, 'capillary'],
  [/\bcell[- ]walls?\b/g, 'cellwall'],
  [/\bcell[- ]membranes?\b|\bplasma membranes?\b/g, 'cellmembrane'],
  [/\bred blood cells?\b|\berythrocytes?\b/g, 'erythrocyte'],
  [/\bwhite blood cells?\b|\bleukocytes?\b|\bleucocytes?\b/g, 'leukocyte'],
  [/\bcell division\b/g, 'division'],
  [/\bprogrammed cell death\b|\bcell suicide\b/g, 'apoptosis'],
  [/\bwater[- ]loving\b/g, 'hydrophilic'],
  [/\bwater[- ]hating\b|\bwater[- ]fearing\b/g, 'hydrophobic'],
  [/\bsemi[- ]?permeable\b|\bselectively permeable\b|\bpartially permeable\b/g, 'semipermeable'],
  [/\bsalutary neglect\b/g, 'salutaryneglect'],
  [/\bgreat britain\b|\bthe british\b|\bengland\b/g, 'britain'],
  [/\bhouse of commons\b|\bmembers of parliament\b/g, 'parliament'],
  [/\bking george( iii)?\b|\bthe crown\b/g, 'king'],
  [/\bno taxation without representation\b/g, 'tax consent representation'],
  [/\by[- ]intercepts?\b/g, 'intercept'],
  [/\bgradients?\b/g, 'slope'],
  [/\bbelow atmospheric\b|\bsub-?atmospheric\b/g, 'negative pressure'],
  [/\bright[- ]shift\b|\bshifts? (?:to )?the right\b|\bmoves? (?:to )?the right\b/g, 'rightshift'],
  // "Take part in" is one verb, so a denial reaches what is taken part in.
  [/\b(?:take|takes|took|taken|taking) part in\b/g, 'participate in'],
  // Phrasal verbs of change, which the lemmatiser reads as "go" and a particle.
  [/\b(?:go|goes|went|gone|going|shoots?|shot|shooting) up\b/g, 'rises'],
  [/\b(?:go|goes|went|gone|going) down\b|\bdrops? off\b/g, 'falls'],
  // Saying a quantity stays as it is denies that it rises or falls ("the ratio does not change").
  [
    /\b(?:does|do|did|will|would|should)(?: not|n't) change\b|\b(?:stays?|stayed|remains?|remained|keeps?|kept|is|are) (?:the same|constant|unchanged|unaltered)\b|\bno change\b/g,
    'unchanged',
  ],
  // "X rather than Y", "X instead of Y": Y is denied as surely as by "not Y".
  [/\brather than\b|\binstead of\b|\bas opposed to\b/g, 'not'],
  [/\bleft[- ]shift\b|\bshifts? (?:to )?the left\b|\bmoves? (?:to )?the left\b/g, 'leftshift'],
  // "shifting the curve to the right": the shift and its direction a few words apart.
  [
    /\b(?:shift|move)(?:s|ed|ing)?\b((?: \w+){0,3}?) (?:to(?:wards)? )?the right\b/g,
    'rightshift$1',
  ],
  [/\b(?:shift|move)(?:s|ed|ing)?\b((?: \w+){0,3}?) (?:to(?:wards)? )?the left\b/g, 'leftshift$1'],
  // "(it goes) to the left" said of a shift without the verb.
  [/\bto(?:wards)? the left\b/g, 'leftshift'],
  [/\bto(?:wards)? the right\b/g, 'rightshift'],
];

/**
 * Groups of words one answer may use for another; the first is the form both sides are
 * compared in. Lemmas (after wink's lemmatiser), lower case.
 */
const GROUPS: string[][] = [
  ['block', 'stop', 'prevent', 'inhibit', 'halt', 'interfere', 'disrupt', 'pause', 'arrest'],
  ['kill', 'destroy'],
  ['burst', 'lyse', 'rupture', 'explode', 'pop'],
  [
    'synthesis',
    'make',
    'build',
    'production',
    'produce',
    'formation',
    'form',
    'assembly',
    'manufacture',
    'create',
    'making',
    'building',
  ],
  ['target', 'site'],
  ['virus', 'viral'],
  ['bacterium', 'bacteria', 'bacterial', 'microbe'],
  ['animal', 'human', 'mammalian'],
  ['oxygen', 'o2'],
  ['hemoglobin', 'haemoglobin', 'hb'],
  ['affinity', 'attraction', 'grip'],
  ['release', 'unload', 'give', 'deliver', 'offload'],
  ['lower', 'reduce', 'decrease', 'drop', 'fall', 'less', 'weaken', 'low'],
  ['raise', 'increase', 'rise', 'high', 'more', 'boost', 'elevate', 'higher', 'greater'],
  ['acid', 'acidity', 'h'],
  ['temperature', 'heat', 'warm', 'warmth', 'hot', 'warmer'],
  ['filter', 'trap', 'catch', 'clean'],
  ['humidify', 'moisten', 'moisture', 'humid', 'wet', 'moist', 'damp'],
  ['mucus', 'mucous', 'mucosa', 'lining'],
  ['turbulence', 'turbulent', 'swirl'],
  ['bypass', 'skip', 'avoid', 'miss'],
  ['collapse', 'deflate', 'shrink'],
  ['recoil', 'elastic', 'elasticity', 'spring'],
  ['separate', 'own', 'independent', 'distinct', 'different'],
  ['cartilage', 'cartilaginous'],
  ['oesophagus', 'esophagus', 'gullet', 'foodpipe'],
  ['swallow', 'swallowing', 'food', 'bolus'],
  ['cough', 'coughing'],
  ['replicate', 'reproduce', 'copy', 'multiply'],
  ['host', 'infected'],
  ['living', 'alive', 'life', 'live', 'organism'],
  ['metabolism', 'metabolic'],
  ['ribosome', 'ribosomal'],
  ['circular', 'loop', 'ring'],
  ['engulf', 'phagocytosis', 'absorb', 'ingest'],
  ['hypertonic', 'concentrated', 'strong'],
  ['shrink', 'shrivel', 'contract'],
  ['tumour', 'tumor'],
  ['mutation', 'mutate', 'mutated', 'damage', 'damaged', 'faulty', 'broken'],
  ['uncontrolled', 'unchecked', 'unregulated', 'uncontrollable', 'runaway'],
  ['debt', 'owe', 'borrow'],
  ['troop', 'army', 'soldier', 'garrison'],
  ['defend', 'defence', 'defense', 'protect', 'protection', 'security'],
  ['tax', 'taxation', 'duty', 'levy', 'taxed'],
  ['enforce', 'enforcement', 'strict', 'crack'],
  ['colony', 'colonist', 'colonial', 'american', 'america'],
  ['assembly', 'legislature'],
  ['elect', 'vote', 'election', 'voter', 'choose'],
  ['consent', 'agree', 'agreement', 'permission'],
  ['reject', 'refuse', 'turn', 'dismiss'],
  ['propaganda', 'persuade', 'persuasion', 'biased', 'bias', 'exaggerate'],
  ['omit', 'leave', 'ignore', 'exclude', 'hide', 'miss'],
  ['boycott', 'nonimportation'],
  ['petition', 'appeal'],
  ['reconciliation', 'reconcile', 'compromise', 'peace'],
  ['monarchy', 'king', 'crown', 'monarch'],
  ['independence', 'independent', 'separation', 'break'],
  ['plain', 'simple', 'ordinary', 'everyday', 'clear'],
  ['parallel'],
  ['intersect', 'meet', 'cross', 'touch'],
  ['false', 'contradiction', 'impossible', 'untrue'],
  ['charge', 'cost', 'price', 'fee', 'pay'],
  ['hourly', 'hour'],
  ['fix', 'fixed', 'callout', 'flat', 'standing'],
  ['obstruction', 'obstructive', 'obstruct', 'blocked', 'blockage'],
  ['narrow', 'narrowed', 'constrict', 'constricted'],
  ['slowly', 'slow'],
  ['multiply', 'times'],
  ['divide', 'division'],
  ['amphipathic', 'amphiphilic'],
  ['ion', 'charged'],
  ['water', 'aqueous', 'h2o'],
  ['spontaneously', 'spontaneous', 'automatically', 'naturally'],
  ['stable', 'stability', 'favourable', 'favorable'],
  ['checkpoint', 'check'],
  ['fast', 'quick', 'rapid', 'faster', 'quickly', 'rapidly', 'quicker'],
  ['large', 'big', 'huge', 'bigger', 'larger', 'vast', 'enormous'],
  ['small', 'tiny', 'little', 'smaller'],
  ['thin', 'thinner'],
  ['thick', 'thicker'],
  ['allow', 'let', 'permit', 'enable'],
  ['forbid', 'ban', 'prohibit', 'bar'],
  // General academic English, not tied to a course (decision 0228): words a learner uses for
  // the reference's in any subject.
  ['cause', 'lead', 'result', 'trigger', 'induce'],
  ['need', 'require', 'requirement', 'necessary', 'demand'],
  ['carry', 'transport', 'convey'],
  ['bind', 'attach', 'stick', 'dock'],
  ['fit', 'match', 'complementary'],
  ['show', 'indicate', 'suggest', 'reveal', 'demonstrate'],
  ['keep', 'maintain', 'preserve', 'sustain'],
  ['use', 'utilise', 'utilize', 'employ'],
  ['permanent', 'permanently', 'irreversible', 'irreversibly'],
  ['enough', 'sufficient', 'adequate', 'sufficiently'],
  ['important', 'crucial', 'vital', 'essential'],
  ['help', 'aid', 'assist'],
  ['change', 'alter', 'modify', 'distort'],
  ['shape', 'conformation'],
  ['move', 'travel', 'migrate'],
  ['rate', 'speed', 'pace'],
  ['collide', 'collision', 'bump'],
  ['energy', 'energetic'],
  ['steep', 'steeply', 'sharp', 'sharply', 'dramatic', 'dramatically'],
  ['begin', 'start', 'commence', 'initiate'],
  ['end', 'finish', 'terminate'],
  ['oppose', 'protest', 'resist', 'resistance', 'opposition'],
  ['anger', 'angry', 'outrage', 'resentment', 'resent', 'discontent'],
  ['power', 'authority'],
  ['win', 'victory', 'triumph'],
  ['same', 'equal', 'identical', 'equivalent'],
  ['chance', 'coincidence', 'luck', 'accident', 'fluke'],
  ['infinite', 'infinitely', 'endless', 'unlimited', 'countless'],
];

/** Each word's group representative. */
export const SYNONYM_OF = new Map<string, string>();
for (const group of GROUPS) {
  // A group whose first word already belongs to an earlier group joins that group, so a word is
  // folded to one form however many groups name it ("shrivel" → "shrink" → "collapse").
  const head = group[0] === undefined ? undefined : (SYNONYM_OF.get(group[0]) ?? group[0]);
  for (const word of group) if (head && !SYNONYM_OF.has(word)) SYNONYM_OF.set(word, head);
}

/**
 * Word pairs that say opposite things: a point that says one and an answer that says the other
 * (without saying the first) is contradicted, even though the other words match.
 */
const OPPOSITES: Array<[string, string]> = [
  ['raise', 'lower'],
  ['enter', 'leave'],
  ['inward', 'outward'],
  ['hydrophilic', 'hydrophobic'],
  ['hypertonic', 'hypotonic'],
  ['rightshift', 'leftshift'],
  ['positive', 'negative'],
  ['gain', 'lose'],
  ['open', 'close'],
  ['expand', 'collapse'],
  ['inspiration', 'expiration'],
  ['inhale', 'exhale'],
  ['living', 'nonliving'],
  ['same', 'separate'],
  ['support', 'oppose'],
  ['accept', 'reject'],
  ['true', 'false'],
  ['obstruction', 'restriction'],
  ['actual', 'virtual'],
  ['internal', 'external'],
  ['suppressor', 'oncogene'],
  // General opposites, not tied to one course (decision 0225).
  ['circular', 'linear'],
  ['fast', 'slowly'],
  ['large', 'small'],
  ['thick', 'thin'],
  ['active', 'passive'],
  ['direct', 'indirect'],
  ['inside', 'outside'],
  ['before', 'after'],
  ['strong', 'weak'],
  ['win', 'lose'],
  ['allow', 'forbid'],
  ['rightshift', 'leftshift'],
  ['collapse', 'relax'],
  ['add', 'subtract'],
  ['multiply', 'divide'],
  ['increase', 'decrease'],
  ['into', 'out'],
  ['absorb', 'release'],
  ['unchanged', 'raise'],
  ['unchanged', 'lower'],
  ['unchanged', 'change'],
  ['permanent', 'reversible'],
  ['downgradient', 'upgradient'],
  ['permanent', 'temporary'],
  ['synthesis', 'breakdown'],
];

/** Each folded word's opposites (a word may have several: "lose" is the opposite of "gain" and "win"). */
export const OPPOSITE_OF = new Map<string, Set<string>>();
for (const [a, b] of OPPOSITES) {
  const left = SYNONYM_OF.get(a) ?? wordRoot(a);
  const right = SYNONYM_OF.get(b) ?? wordRoot(b);
  if (left === right) continue;
  for (const [word, opposite] of [
    [left, right],
    [right, left],
  ] as const) {
    const set = OPPOSITE_OF.get(word) ?? new Set<string>();
    set.add(opposite);
    OPPOSITE_OF.set(word, set);
  }
}

/**
 * The word's opposites made by a negating prefix, added or taken away: "irrevers" for
 * "revers", "solubl" for "insolubl". Only stems of five letters or more, so "tend" is never the
 * opposite of "intend".
 */
export function prefixOpposites(word: string): string[] {
  const opposites: string[] = [];
  for (const prefix of NEGATING_PREFIXES) {
    if (word.length >= 5) opposites.push(prefix + word);
    if (word.startsWith(prefix) && word.length - prefix.length >= 5) {
      opposites.push(word.slice(prefix.length));
    }
  }
  return opposites;
}

/**
 * Learners' words for the course's own, from WordNet's most frequent senses (decision 0232,
 * built by scripts/build-evaluator-synonyms.ts): each word of a group but its first, folded to
 * the first ("conjecture" → "guess", "french" → "france"). Words of the groups and opposites above
 * keep their own folding.
 */
export const WORDNET_OF = new Map<string, string>();
{
  const opposed = new Set(OPPOSITES.flat());
  for (const [word, ...synonyms] of wordnet.groups) {
    if (!word) continue;
    const folded = SYNONYM_OF.get(word) ?? wordRoot(word);
    for (const synonym of synonyms) {
      if (SYNONYM_OF.has(synonym) || opposed.has(synonym) || WORDNET_OF.has(synonym)) continue;
      WORDNET_OF.set(synonym, folded);
    }
  }
}
