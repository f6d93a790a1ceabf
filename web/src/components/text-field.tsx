import type { InputHTMLAttributes, ReactNode } from 'react';

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  id: string;
  label: ReactNode;
  /** Help under the field, read with it by screen readers. */
  hint?: ReactNode;
  /** What is wrong with the value; marks the field invalid. */
  error?: ReactNode;
  fieldClassName?: string;
};

/** A labelled input with its optional hint and error, each tied to it for assistive technology. */
export function TextField({ id, label, hint, error, fieldClassName, ...input }: TextFieldProps) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={fieldClassName ? `field ${fieldClassName}` : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="field__input" aria-invalid={error ? true : undefined} aria-describedby={described || undefined} {...input} />
      {hint ? (
        <span id={`${id}-hint`} className="field__hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} className="field__error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
