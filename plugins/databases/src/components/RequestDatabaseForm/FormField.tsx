import { TextField } from '@material-ui/core';
import { ReactNode } from 'react';
import { RequestFormErrors, RequestFormField, RequestFormValues } from '../../lib/requestForm';

/** One outlined field of the request form; its error shows only once `show` says the user has seen it. */
export function FormField(props: {
  field: RequestFormField;
  label: string;
  values: RequestFormValues;
  errors: RequestFormErrors;
  show: boolean;
  onChange: (field: RequestFormField, value: string) => void;
  helperText?: string;
  select?: boolean;
  disabled?: boolean;
  children?: ReactNode;
}) {
  const error = props.show ? props.errors[props.field] : undefined;
  return (
    <TextField
      id={`request-${props.field}`}
      name={props.field}
      label={props.label}
      value={props.values[props.field]}
      onChange={e => props.onChange(props.field, e.target.value)}
      error={!!error}
      helperText={error ?? props.helperText ?? ' '}
      select={props.select}
      disabled={props.disabled}
      fullWidth
      variant="outlined"
      margin="dense"
      SelectProps={props.select ? { SelectDisplayProps: { 'aria-label': props.label } as any } : undefined}
    >
      {props.children}
    </TextField>
  );
}
