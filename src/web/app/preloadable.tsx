import { use, type ComponentType } from 'react';

export interface PreloadableComponent {
  /** Renders the loaded component; suspends until it has loaded. */
  Component: ComponentType;
  /** Starts (or joins) loading; resolves when the component can render synchronously. */
  preload: () => Promise<void>;
}

/**
 * A lazily loaded component that can be loaded ahead of rendering. Unlike React.lazy it renders
 * synchronously once preloaded, which is what hydrating prerendered HTML needs: the client
 * loads the current page's chunk first and then hydrates without suspending.
 */
export function preloadable(load: () => Promise<ComponentType>): PreloadableComponent {
  let loaded: ComponentType | undefined;
  let pending: Promise<void> | undefined;

  const preload = (): Promise<void> => {
    pending ??= load().then(
      (component) => {
        loaded = component;
      },
      (error: unknown) => {
        // Forget the failure so a retry (or the next navigation) loads again.
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };

  function Component() {
    if (!loaded) use(preload());
    const Loaded = loaded as ComponentType;
    return <Loaded />;
  }

  return { Component, preload };
}
