import Type from 'typebox';

/**
 * Every error the API returns has this shape. `error` and `message` carry the same sentence for a
 * person: clients of the original product read one or the other depending on the call.
 */
export const ErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'what went wrong, for a person to read' }),
    message: Type.String({ description: 'the same sentence as `error`' }),
  },
  { $id: 'ErrorResponse' },
);

export const errorBody = (message: string) => ({ error: message, message });
