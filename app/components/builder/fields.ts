import type { FormMetadata } from '@conform-to/react';
import type { toFormValues } from '../../../modules/surveys/forms.ts';

/** The builder form's fields as conform gives them (`useForm` in form.tsx, typed by its default values), for the steps' own files. */
export type BuilderFields = ReturnType<FormMetadata<ReturnType<typeof toFormValues>, string[]>['getFieldset']>;
