/**
 * Words and facts of the AI Study Coach page, from the specification's description of the
 * coach (modes, conversational states, help flow, model routing) and its benefits.
 */
import { brand } from '@common/brand';
import {
  BookOpenCheck,
  Brain,
  ChartNoAxesCombined,
  CircleHelp,
  Clock,
  EyeOff,
  GraduationCap,
  History,
  Lightbulb,
  ListChecks,
  MessageCircleQuestion,
  RefreshCcw,
  Route,
  Sparkles,
  Users,
  Zap,
} from 'lucide-react';
import type { FeatureItem } from '../shared/types';

export const coachHero = {
  eyebrow: brand.headerTitle,
  title: brand.coach,
  tagline: 'A tutor that asks instead of tells.',
  lead: `The ${brand.coach} uses the Socratic method: it guides each student to the answer with questions, changes its approach when a student is stuck, and goes back to the basics when they need it — at any hour. It runs on its built-in engine, which needs no network, or through the language models an operator configures. Sign in and open Study Coach to try it.`,
  badges: ['No network needed, or your own models', 'Socratic method', 'Three modes'],
  primaryAction: { href: '#coach', label: 'See the coach in action' },
  secondaryAction: { href: '#how-it-works', label: 'How it works' },
} as const;

export const coachFeatures = {
  title: 'Features',
  intro: 'Everything the coach does is designed to make the student think, not to think for them.',
  items: [
    {
      title: 'Guiding questions, not answers',
      text: 'The coach leads with questions that help students reach the answer themselves.',
      icon: MessageCircleQuestion,
    },
    {
      title: 'A new approach after a wrong answer',
      text: 'It never repeats itself: a teaching-history log lets it choose a different explanation each time.',
      icon: RefreshCcw,
    },
    {
      title: 'Hints when they help',
      text: 'In quizzes and practice, a wrong answer earns a hint that points the way without giving it away.',
      icon: Lightbulb,
    },
    {
      title: 'Foundational refreshers',
      text: 'When a student keeps struggling, the coach pauses and offers to revisit the basics first.',
      icon: BookOpenCheck,
    },
    {
      title: 'Help on request',
      text: 'Students can ask for help in their own words at any point, and the coach switches to its help flow.',
      icon: CircleHelp,
    },
    {
      title: 'Quick facts when that is all you need',
      text: 'General Knowledge mode gives short, factual answers without the back-and-forth.',
      icon: Zap,
    },
  ] satisfies FeatureItem[],
};

export const howItWorks = {
  title: 'How It Works',
  intro:
    'Three modes for three kinds of question, two conversational states, and a help flow that never leaves a student stuck.',
  modesTitle: 'Three modes',
};

export interface CoachMode {
  name: string;
  summary: string;
  steps: string[];
  icon: FeatureItem['icon'];
}

export const coachModes: CoachMode[] = [
  {
    name: 'Study Session',
    summary: 'Learn a topic step by step.',
    steps: [
      'Starts from an open question',
      'Guided practice loop of questions and answers',
      'Offers a refresher after repeated wrong answers',
    ],
    icon: GraduationCap,
  },
  {
    name: 'Quiz',
    summary: 'Test what you know.',
    steps: [
      'Socratic feedback on every answer',
      'Hints on wrong answers',
      'Offers a study session when answers are consistently wrong',
    ],
    icon: ListChecks,
  },
  {
    name: 'General Knowledge',
    summary: 'Get a quick fact.',
    steps: ['Quick, concise factual answers', 'No back-and-forth'],
    icon: Zap,
  },
];

export const conversationStates = {
  title: 'Two conversational states',
  intro:
    'The coach always knows whether it is opening a new question or waiting for the student’s answer, and it behaves differently in each.',
  states: [
    {
      name: 'New question',
      text: 'The coach poses a question — or a guiding question towards the student’s own — and waits.',
    },
    {
      name: 'Awaiting an answer',
      text: 'The student’s reply is checked by a dedicated evaluation step, which judges whether it is right, partly right or wrong and what to do next.',
    },
  ],
};

export const helpFlow = {
  title: 'The help flow',
  intro:
    'Getting something wrong is part of learning. The coach responds in escalating steps, always returning the student to the question they started with.',
  steps: [
    {
      title: 'Wrong answer: a different approach',
      text: 'The coach does not repeat itself. It checks its teaching-history log and explains in a new way — an analogy, an example, a smaller question.',
    },
    {
      title: 'Struggle threshold: pause and offer a refresher',
      text: 'After a set number of consecutive wrong answers, the coach pauses and offers a foundational refresher.',
    },
    {
      title: 'Refresher: a simpler lesson',
      text: 'If the student accepts, the coach teaches a simpler lesson and asks a few basic questions.',
    },
    {
      title: 'Back to the original question',
      text: 'With the foundation in place, the coach returns to the question the student started with.',
    },
    {
      title: 'Right answer: confirm and continue',
      text: 'A right answer gets a clear confirmation and the offer of another question.',
    },
  ],
  requestsTitle: 'Asking for help directly',
  requestsIntro:
    'A direct request for help at any point starts the same help flow. For example, a student can say:',
  requests: [
    'I need more help',
    'Can you help',
    'I don’t know',
    'I’m stuck',
    'I need to go back to the basics',
  ],
};

export const methodology = {
  title: 'Technology and methodology',
  intro:
    'Good tutoring has a structure. The coach combines a proven teaching method with AI models chosen for each kind of question.',
  items: [
    {
      title: 'The Socratic method',
      text: 'Students learn more when they reason their way to an answer. The coach asks, listens, and asks again, rather than lecturing.',
      icon: Brain,
    },
    {
      title: 'Dedicated answer evaluation',
      text: 'Every answer the coach is waiting for is judged by a separate evaluation step that reads word forms, negation, numbers with units and misspellings, so feedback is about the student’s reasoning, not a string match.',
      icon: ListChecks,
    },
    {
      title: 'Teaching-history log',
      text: 'The coach records how it has already explained a concept, so the next explanation can be genuinely different.',
      icon: History,
    },
    {
      title: 'Model routing',
      text: 'Study sessions and quizzes through a mid-size model from one AI provider, General Knowledge through a small model from a second provider with a larger one as fallback; the teaching plan stays the coach’s own. Nothing configured: the built-in engine answers, and the chat says which did.',
      icon: Route,
    },
    {
      title: 'Voice',
      text: 'A voice feature from a speech provider is planned.',
      icon: Sparkles,
      tag: 'Planned',
    },
  ] satisfies FeatureItem[],
};

/** The recorded walkthrough (decision 0229): its summary follows the video's caption cues. */
export const coachVideo = {
  caption: `Video walkthrough: a Study Session with the ${brand.coach} (45 s, no sound, captions)`,
  summaryTitle: 'What the video shows:',
  summary: [
    'The coach asks a question from the course’s bank.',
    'Wrong answers meet new approaches and a hint.',
    'After three, a refresher on the basics, with basic questions.',
    'Back at the question, a right answer; the coach says why.',
  ],
  transcript: 'Read the full transcript',
};

/** The demo of the coach's answer evaluator on sample questions (decision 0224). */
export const coachDemo = {
  title: 'Try the answer evaluator',
  intro:
    'Answer a sample question from one of the sample courses and see how the coach judges it: which key points your answer makes, which it misses, and why. No account needed; your answer is not stored.',
  start: 'Try a sample question',
};

export const dialoguesSection = {
  title: 'The coach in action',
  intro:
    'Two worked examples from Study Sessions. Each shows guiding questions, a wrong answer met with a different approach, a hint, and a right answer confirmed with the offer of another question.',
};

export const studentBenefits = {
  title: 'Benefits for students',
  items: [
    {
      title: 'Build confidence',
      text: 'Reaching the answer yourself — with a hint when you need one — builds the confidence to tackle the next problem alone.',
      icon: Sparkles,
    },
    {
      title: '24/7 access',
      text: 'The coach is there the night before the exam, at the weekend and between lectures.',
      icon: Clock,
    },
    {
      title: 'Master concepts for life',
      text: 'Understanding built step by step, and refreshed at the foundations, lasts beyond the next test.',
      icon: Brain,
    },
  ] satisfies FeatureItem[],
};

export const institutionBenefits = {
  title: 'Benefits for institutions',
  intro: 'For universities, faculty and learning support teams.',
  items: [
    {
      title: 'Scalable tutoring',
      text: 'One-to-one Socratic tutoring available to every student, at any hour, across every course.',
      icon: Users,
    },
    {
      title: 'Better outcomes',
      text: 'Students who reason through problems, rather than copy answers, understand and retain more.',
      icon: ChartNoAxesCombined,
    },
    {
      title: 'Anonymized insights',
      text: 'See which concepts students struggle with, anonymized, so teaching can focus where it is needed.',
      icon: EyeOff,
    },
  ] satisfies FeatureItem[],
};
