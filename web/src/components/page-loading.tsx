import { Spinner } from './spinner';

/** A whole page waiting for its code or its data. */
export function PageLoading({ label = 'Loading' }: { label?: string }) {
  return (
    <p className="page-loading">
      <Spinner label={label} />
    </p>
  );
}
