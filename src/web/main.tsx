import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';

function Boot() {
  return <main className="p-8 text-lg">Lyceum</main>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Boot />
  </StrictMode>,
);
