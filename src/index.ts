export type {
  Alert,
  AlertRequest,
  Pipe,
  PipeSettings,
  PipeSettingsUpdate,
  ReversePrivateEndpoint,
  ReversePrivateEndpointRequest,
  Service,
} from "./types.js";
