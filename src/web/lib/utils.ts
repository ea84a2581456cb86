import { clsx, type ClassValue } from 'clsx';

let merge: ((classes: string) => string) | undefined;
let loadingMerge: Promise<void> | undefined;

/**
 * Joins class names. Once `loadClassMerge` has run, later Tailwind utilities also override
 * earlier conflicting ones (`cn('h-9 px-4', 'h-auto')` gives `px-4 h-auto`). The public site
 * composes its classes without conflicts and never needs that, so tailwind-merge (9 KB gzip)
 * stays out of every public page's load; the screens that pass overriding classes load it
 * first (decision 0190).
 */
export function cn(...inputs: ClassValue[]): string {
  const classes = clsx(inputs);
  return merge ? merge(classes) : classes;
}

/**
 * Loads tailwind-merge into `cn`. Every loader of code that may pass conflicting classes
 * awaits it before that code renders: the learning app, the account screens, the data room
 * and the public site's dialogs and demos that open on a visitor's action.
 */
export function loadClassMerge(): Promise<void> {
  loadingMerge ??= import('tailwind-merge').then(({ twMerge }) => {
    merge = twMerge;
  });
  return loadingMerge;
}
