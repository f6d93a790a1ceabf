import Type from 'typebox';

/** Every error the API returns has this shape; `error` is a sentence for a person. */
export const ErrorResponse = Type.Object(
  { error: Type.String({ description: 'what went wrong, for a person to read' }) },
  { $id: 'ErrorResponse' },
);
