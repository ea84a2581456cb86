import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';

interface Props {
  children: ReactNode;
  /** Changing it (a new page) clears the error. */
  resetKey: string;
}

interface State {
  error: Error | null;
  resetKey: string;
}

/**
 * A page that fails to load (a chunk missing after a deploy, the network gone) shows a clear
 * message with a retry instead of a blank screen.
 */
export class PageErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Page failed to render', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" className="mx-auto max-w-xl px-6 py-20 text-center">
        <h1 className="text-3xl font-bold tracking-tight">This page could not be loaded</h1>
        <p className="mt-3 text-muted-foreground">
          Check your connection and try again. If it keeps happening, the site may have just been
          updated: reloading fetches the new version.
        </p>
        <Button className="mt-6" onClick={() => window.location.reload()}>
          <RotateCw aria-hidden="true" />
          Reload the page
        </Button>
      </div>
    );
  }
}
